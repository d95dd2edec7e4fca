/**
 * Support chat rules (issue 18 items 4 and 6, decision 0032): who may read and write which conversation, what each
 * change tells the sockets, and the check that mails conversations left unanswered. A conversation's changes go to
 * `chat:{userId}` (its user's tabs and staff watching it) and to the staff queue; nowhere else.
 */
import type { User } from '@tessera/common/entities';
import {
  CHAT_MESSAGES,
  CHAT_QUEUE_CHANNEL,
  type ChatConversation,
  type ChatSide,
  canChat,
  chatChannel,
  isChatStaff,
} from '@tessera/common/support-chat';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client';
import { Conflict, Forbidden, NotFound, Unauthorized } from '../../http/errors';
import type { Mailer } from '../../mail';
import type { Hub } from '../../socket/hub';
import { chatLink, unansweredMail } from './mail';
import type { Presence } from './presence';
import * as repo from './repo';

export interface ChatServiceDeps {
  database: Database;
  hub: Hub;
  mailer: Mailer;
  presence: Presence;
  publicUrl: URL;
  supportEmail: string | null;
  /** Minutes a user's message may wait for an answer before it is mailed; 0: never mailed. */
  unansweredMinutes: number;
  logger: FastifyBaseLogger;
}

type Caller = Pick<User, 'id' | 'role'>;

/** Signed in past the agreement, or 401/403. */
export function requireChatter(user: Caller): void {
  if (user.id === 0) throw new Unauthorized();
  if (!canChat(user.role)) throw new Forbidden(CHAT_MESSAGES.signIn);
}

export function requireStaff(user: Caller): void {
  if (user.id === 0) throw new Unauthorized();
  if (!isChatStaff(user.role)) throw new Forbidden(CHAT_MESSAGES.staffOnly);
}

const sideOf = (user: Caller): ChatSide => (isChatStaff(user.role) ? 'staff' : 'user');

export function createChatService(deps: ChatServiceDeps) {
  const { database, hub } = deps;

  /** The conversation, if the caller may see it: 404 when there is none, 403 when it is someone else's. */
  async function visible(db: Executor, user: Caller, id: number): Promise<ChatConversation> {
    const conversation = await repo.getConversation(db, id);
    if (!conversation) throw new NotFound(CHAT_MESSAGES.notFound);
    if (conversation.userId !== user.id && !isChatStaff(user.role)) throw new Forbidden(CHAT_MESSAGES.notYours);
    return conversation;
  }

  /** Same check under a row lock, for writes. */
  async function locked(tx: Executor, user: Caller, id: number) {
    const row = await repo.lockConversation(tx, id);
    if (!row) throw new NotFound(CHAT_MESSAGES.notFound);
    if (row.userId !== user.id && !isChatStaff(user.role)) throw new Forbidden(CHAT_MESSAGES.notYours);
    return row;
  }

  /** Tells both sides what changed: the user's channel and the staff queue. */
  async function publish(conversation: ChatConversation, payload: Record<string, unknown> = {}): Promise<void> {
    await Promise.all([
      hub.publish(chatChannel(conversation.userId), { ...payload, chatConversation: conversation }),
      hub.publish(CHAT_QUEUE_CHANNEL, { chatConversation: conversation }),
    ]);
  }

  return {
    visible: (user: Caller, id: number) => visible(database.db, user, id),

    /** Staff: the queue; others: their own conversations. */
    list(user: Caller, status: 'open' | 'closed' | 'all') {
      return isChatStaff(user.role) ? repo.queue(database.db, status) : repo.userConversations(database.db, user.id);
    },

    async open(user: Caller): Promise<{ conversation: ChatConversation; created: boolean }> {
      const { id, created } = await database.transaction((tx) => repo.openFor(tx, user.id));
      const conversation = (await repo.getConversation(database.db, id))!;
      if (created) await publish(conversation);
      return { conversation, created };
    },

    async messages(user: Caller, id: number, before?: number) {
      const conversation = await visible(database.db, user, id);
      return { conversation, messages: await repo.messagesOf(database.db, id, before) };
    },

    async write(user: Caller, id: number, body: string) {
      const side = sideOf(user);
      const message = await database.transaction(async (tx) => {
        const row = await locked(tx, user, id);
        if (row.status === 'closed') throw new Conflict(CHAT_MESSAGES.closed);
        return repo.addMessage(tx, id, user.id, row.userId === user.id ? 'user' : side, body);
      });
      const conversation = (await repo.getConversation(database.db, id))!;
      await publish(conversation, { chatMessage: message });
      return { message, conversation };
    },

    async read(user: Caller, id: number, upTo: number) {
      await database.transaction(async (tx) => {
        const row = await locked(tx, user, id);
        await repo.markRead(tx, id, row.userId === user.id ? 'user' : 'staff', upTo);
      });
      const conversation = (await repo.getConversation(database.db, id))!;
      await publish(conversation);
      return conversation;
    },

    async typing(user: Caller, id: number): Promise<void> {
      const conversation = await visible(database.db, user, id);
      if (conversation.status === 'closed') throw new Conflict(CHAT_MESSAGES.closed);
      const side: ChatSide = conversation.userId === user.id ? 'user' : 'staff';
      await hub.publish(chatChannel(conversation.userId), {
        chatTyping: { conversationId: id, side, userId: user.id },
      });
    },

    async setStatus(user: Caller, id: number, status: 'open' | 'closed') {
      requireStaff(user);
      await database.transaction(async (tx) => {
        const row = await repo.lockConversation(tx, id);
        if (!row) throw new NotFound(CHAT_MESSAGES.notFound);
        if (row.status === status) {
          throw new Conflict(status === 'closed' ? CHAT_MESSAGES.alreadyClosed : CHAT_MESSAGES.alreadyOpen);
        }
        if (status === 'open' && (await repo.hasOtherOpen(tx, row.userId, id))) {
          throw new Conflict(CHAT_MESSAGES.otherOpen);
        }
        await repo.setStatus(tx, id, status, user.id);
      });
      const conversation = (await repo.getConversation(database.db, id))!;
      await publish(conversation);
      return conversation;
    },

    presence: async () => ({ staffOnline: await deps.presence.staffOnline() }),

    /**
     * Mails every open conversation whose user has waited longer than the setting, once per wait, however many
     * processes run this at the same moment (the claim is one conditional update). Returns the ids mailed.
     */
    async checkUnanswered(now: number = Date.now()): Promise<number[]> {
      if (deps.unansweredMinutes <= 0 || !deps.supportEmail) return [];
      const cutoff = new Date(now - deps.unansweredMinutes * 60_000);
      const claimed = await repo.claimUnanswered(database.db, cutoff);
      for (const c of claimed) {
        const conversation = await repo.getConversation(database.db, c.id);
        if (!conversation) continue;
        const waiting = (await repo.messagesOf(database.db, c.id)).filter(
          (m) => !m.fromStaff && m.createdAt >= c.awaitingSince,
        );
        deps.mailer.send(
          unansweredMail({
            to: deps.supportEmail,
            conversation,
            waiting,
            minutes: deps.unansweredMinutes,
            link: chatLink(deps.publicUrl, c.id),
          }),
        );
        deps.logger.info({ chatConversationId: c.id }, 'unanswered support chat mailed');
      }
      return claimed.map((c) => c.id);
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
