/** Zod schemas of the browser's socket messages, checked by the server; tied to `ClientMessage`. */
import { z } from 'zod';
import { CLIENT_ERROR_MAX_CHARS, type ClientMessage, HIT_URL_MAX_CHARS } from '../socket';

/** A channel a browser may subscribe to: `self:{id}`, `organization:{id}`, `chat:{userId}` or a system channel. */
export const channelSchema = z
  .string()
  .max(100)
  .regex(/^(self|organization|chat):\d{1,15}$|^system:[a-z]{1,30}$/, 'Unknown channel.');

export const clientMessageSchema = z.union([
  z.tuple([
    z.literal('hit'),
    z.object({ index: z.number().int().nonnegative().max(2_147_483_647), url: z.string().max(HIT_URL_MAX_CHARS) }),
  ]),
  z.tuple([z.literal('subscribe'), channelSchema]),
  z.tuple([z.literal('unsubscribe'), channelSchema]),
  z.tuple([z.literal('clear'), z.null().optional()]),
  z.tuple([z.literal('beforeunload'), z.null().optional()]),
  z.tuple([z.literal('clientError'), z.string().max(CLIENT_ERROR_MAX_CHARS)]),
]) satisfies z.ZodType<ClientMessage>;
