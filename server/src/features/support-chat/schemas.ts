/** Request shapes of the support chat: the message rule and limit come from common/support-chat.ts. */

import { requiredText } from '@tessera/common/schemas/fields';
import { CHAT_LIMITS, CHAT_WHAT } from '@tessera/common/support-chat';
import { z } from 'zod';

const id = z.coerce.number().int().positive().max(2_147_483_647);

export const conversationParams = z.object({ id });

export const queueQuery = z.object({
  /** Staff's queue: 'open' (the default), 'closed' or 'all'. Users always get their own conversations. */
  status: z.enum(['open', 'closed', 'all']).default('open'),
});

export const messagesQuery = z.object({
  /** The page of messages before this message id (older ones); none: the latest page. */
  before: id.optional(),
});

export const messageBody = z.object({ text: requiredText(CHAT_WHAT.message, CHAT_LIMITS.message) }).strict();

export const readBody = z.object({ upTo: z.number().int().min(0).max(2_147_483_647) }).strict();
