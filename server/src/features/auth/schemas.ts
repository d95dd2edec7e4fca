import { userSchema } from '@tessera/common/schemas/entities';
import { z } from 'zod';

export const loginBody = z.object({
  email: z.string().trim().min(1, 'Please provide an email address.').max(100),
  password: z.string().min(1, 'Please provide a password.').max(100),
  /** 'true' or empty, as the form sends it (spec §3). */
  remember: z.union([z.literal('true'), z.literal(''), z.boolean()]).optional(),
  /** The page the visitor wanted before signing in; only a path on this site is honoured. */
  returnTo: z.string().max(2048).optional(),
});

export const loginReply = z.object({ location: z.string() });
export const selfReply = z.object({ self: userSchema });
