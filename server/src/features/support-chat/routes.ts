/**
 * Support chat routes (issue 18 items 4 and 6): a signed-in user opens or resumes their conversation and writes in
 * it; staff (super+) list the queue, answer, close and reopen. Writes are throttled per user (429 with
 * Retry-After). Logs name conversations by id only, never what was written.
 */
import { CHAT_MESSAGES } from '@tessera/common/support-chat';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TooManyRequests } from '../../http/errors';
import type { Limiter } from '../throttle/limiter';
import { conversationParams, messageBody, messagesQuery, queueQuery, readBody } from './schemas';
import { type ChatService, requireChatter, requireStaff } from './service';

const MINUTE = 60_000;

/** Per user: messages written, typing notices, conversations opened. */
export const CHAT_THROTTLE = {
  messages: { limit: 30, windowMs: MINUTE },
  typing: { limit: 60, windowMs: MINUTE },
  opens: { limit: 30, windowMs: 60 * MINUTE },
} as const;

type Kind = keyof typeof CHAT_THROTTLE;

export interface ChatRouteDeps {
  chat: ChatService;
  limiter: Limiter;
}

export function registerChatRoutes(app: FastifyInstance, deps: ChatRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { chat, limiter } = deps;

  async function throttle(request: FastifyRequest, kind: Kind): Promise<void> {
    const rule = CHAT_THROTTLE[kind];
    const { count, retryAfter } = await limiter.hit(`chat:${kind}:${request.user.id}`, rule.windowMs);
    if (count > rule.limit) throw new TooManyRequests(CHAT_MESSAGES.tooMany, retryAfter);
  }
  const chatter = async (request: FastifyRequest) => requireChatter(request.user);
  const staff = async (request: FastifyRequest) => requireStaff(request.user);

  r.get('/v2/chat/conversations', { preHandler: chatter, schema: { querystring: queueQuery } }, async (request) => ({
    chatConversations: await chat.list(request.user, request.query.status),
  }));

  r.post('/v2/chat/conversations', { preHandler: chatter }, async (request, reply) => {
    await throttle(request, 'opens');
    const { conversation, created } = await chat.open(request.user);
    reply.code(created ? 201 : 200);
    return { chatConversation: conversation };
  });

  r.get('/v2/chat/presence', { preHandler: chatter }, async () => ({ chatPresence: await chat.presence() }));

  r.get(
    '/v2/chat/conversations/:id/messages',
    { preHandler: chatter, schema: { params: conversationParams, querystring: messagesQuery } },
    async (request) => {
      const { conversation, messages } = await chat.messages(request.user, request.params.id, request.query.before);
      return { chatConversation: conversation, chatMessages: messages };
    },
  );

  r.post(
    '/v2/chat/conversations/:id/messages',
    { preHandler: chatter, schema: { params: conversationParams, body: messageBody } },
    async (request, reply) => {
      await chat.visible(request.user, request.params.id); // 403/404 before counting against the writer
      await throttle(request, 'messages');
      const { message, conversation } = await chat.write(request.user, request.params.id, request.body.text);
      reply.code(201);
      return { chatMessage: message, chatConversation: conversation };
    },
  );

  r.post(
    '/v2/chat/conversations/:id/read',
    { preHandler: chatter, schema: { params: conversationParams, body: readBody } },
    async (request) => ({ chatConversation: await chat.read(request.user, request.params.id, request.body.upTo) }),
  );

  r.post(
    '/v2/chat/conversations/:id/typing',
    { preHandler: chatter, schema: { params: conversationParams } },
    async (request, reply) => {
      await throttle(request, 'typing');
      await chat.typing(request.user, request.params.id);
      return reply.code(204).send();
    },
  );

  for (const [action, status] of [
    ['close', 'closed'],
    ['reopen', 'open'],
  ] as const) {
    r.post(
      `/v2/chat/conversations/:id/${action}`,
      { preHandler: staff, schema: { params: conversationParams } },
      async (request) => ({ chatConversation: await chat.setStatus(request.user, request.params.id, status) }),
    );
  }
}
