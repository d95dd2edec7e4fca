/** Support chat storage: conversations with their unread counts, messages, read marks (decision 0032). */
import { CHAT_LIMITS, type ChatConversation, type ChatMessage, type ChatSide } from '@tessera/common/support-chat';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rows } from '../../db/rows';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

interface ConversationRow {
  id: number;
  user_id: number;
  user_name: string;
  user_email: string;
  status: 'open' | 'closed';
  created_at: Date;
  last_message_at: Date;
  awaiting_since: Date | null;
  closed_at: Date | null;
  user_read_id: number;
  staff_read_id: number;
  unread_by_user: number;
  unread_by_staff: number;
}

function conversationView(r: ConversationRow): ChatConversation {
  return {
    id: r.id,
    userId: r.user_id,
    userName: r.user_name,
    userEmail: r.user_email,
    status: r.status,
    createdAt: iso(r.created_at),
    lastMessageAt: iso(r.last_message_at),
    awaitingSince: isoOrNull(r.awaiting_since),
    closedAt: isoOrNull(r.closed_at),
    userReadId: r.user_read_id,
    staffReadId: r.staff_read_id,
    unreadByUser: Number(r.unread_by_user),
    unreadByStaff: Number(r.unread_by_staff),
  };
}

const SELECT_CONVERSATIONS = sql`select c.id, c.user_id, u.name as user_name, u.email as user_email, c.status,
  c.created_at, c.last_message_at, c.awaiting_since, c.closed_at, c.user_read_id, c.staff_read_id,
  (select count(*)::int from chat_messages m
    where m.conversation_id = c.id and m.from_staff and m.id > c.user_read_id) as unread_by_user,
  (select count(*)::int from chat_messages m
    where m.conversation_id = c.id and not m.from_staff and m.id > c.staff_read_id) as unread_by_staff
  from chat_conversations c join users u on u.id = c.user_id`;

export async function getConversation(db: Executor, id: number): Promise<ChatConversation | null> {
  const [row] = await rows<ConversationRow>(db, sql`${SELECT_CONVERSATIONS} where c.id = ${id}`);
  return row ? conversationView(row) : null;
}

/** A user's conversations, newest first (the open one, if any, leads). */
export async function userConversations(db: Executor, userId: number): Promise<ChatConversation[]> {
  const found = await rows<ConversationRow>(
    db,
    sql`${SELECT_CONVERSATIONS} where c.user_id = ${userId}
      order by (c.status = 'open') desc, c.last_message_at desc, c.id desc limit ${CHAT_LIMITS.queue}`,
  );
  return found.map(conversationView);
}

/** Staff's queue: those waiting for an answer first (longest wait first), then by latest message. */
export async function queue(db: Executor, status: 'open' | 'closed' | 'all'): Promise<ChatConversation[]> {
  const where = status === 'all' ? sql`true` : sql`c.status = ${status}`;
  const found = await rows<ConversationRow>(
    db,
    sql`${SELECT_CONVERSATIONS} where ${where}
      order by (c.awaiting_since is null), c.awaiting_since, c.last_message_at desc, c.id desc
      limit ${CHAT_LIMITS.queue}`,
  );
  return found.map(conversationView);
}

/** The user's open conversation, made if there is none; `created` says which. Safe against a parallel call. */
export async function openFor(db: Executor, userId: number): Promise<{ id: number; created: boolean }> {
  const [made] = await rows<{ id: number }>(
    db,
    sql`insert into chat_conversations (user_id) values (${userId})
      on conflict (user_id) where status = 'open' do nothing returning id`,
  );
  if (made) return { id: made.id, created: true };
  const [open] = await rows<{ id: number }>(
    db,
    sql`select id from chat_conversations where user_id = ${userId} and status = 'open'`,
  );
  return { id: open!.id, created: false };
}

/** Locks a conversation row for the rest of the transaction; its owner and status, or null. */
export async function lockConversation(
  db: Executor,
  id: number,
): Promise<{ userId: number; status: 'open' | 'closed' } | null> {
  const [row] = await rows<{ user_id: number; status: 'open' | 'closed' }>(
    db,
    sql`select user_id, status from chat_conversations where id = ${id} for update`,
  );
  return row ? { userId: row.user_id, status: row.status } : null;
}

interface MessageRow {
  id: number;
  conversation_id: number;
  author_id: number;
  from_staff: boolean;
  body: string;
  created_at: Date;
}

const messageView = (r: MessageRow): ChatMessage => ({
  id: r.id,
  conversationId: r.conversation_id,
  authorId: r.author_id,
  fromStaff: r.from_staff,
  body: r.body,
  createdAt: iso(r.created_at),
});

/**
 * Stores a message and moves the conversation along: a user's message starts a wait (if none is running), a
 * staff answer ends it; the writer's side has read everything up to its own message.
 */
export async function addMessage(
  db: Executor,
  conversationId: number,
  authorId: number,
  side: ChatSide,
  body: string,
): Promise<ChatMessage> {
  const [row] = await rows<MessageRow>(
    db,
    sql`insert into chat_messages (conversation_id, author_id, from_staff, body)
      values (${conversationId}, ${authorId}, ${side === 'staff'}, ${body}) returning *`,
  );
  const message = row!;
  if (side === 'staff') {
    await db.execute(sql`update chat_conversations set last_message_at = ${message.created_at},
      awaiting_since = null, unanswered_mailed_at = null, staff_read_id = ${message.id} where id = ${conversationId}`);
  } else {
    await db.execute(sql`update chat_conversations set last_message_at = ${message.created_at},
      awaiting_since = coalesce(awaiting_since, ${message.created_at}), user_read_id = ${message.id}
      where id = ${conversationId}`);
  }
  return messageView(message);
}

/** The latest page of messages, or the page before message `before`; oldest first. */
export async function messagesOf(db: Executor, conversationId: number, before?: number): Promise<ChatMessage[]> {
  const older = before === undefined ? sql`` : sql` and id < ${before}`;
  const found = await rows<MessageRow>(
    db,
    sql`select * from chat_messages where conversation_id = ${conversationId}${older}
      order by id desc limit ${CHAT_LIMITS.page}`,
  );
  return found.reverse().map(messageView);
}

/** Moves a side's read mark forward to `upTo` (never back, never past the last message). */
export async function markRead(db: Executor, conversationId: number, side: ChatSide, upTo: number): Promise<void> {
  const last = sql`(select coalesce(max(id), 0) from chat_messages where conversation_id = ${conversationId})`;
  if (side === 'user') {
    await db.execute(sql`update chat_conversations set user_read_id = greatest(user_read_id, least(${upTo}, ${last}))
      where id = ${conversationId}`);
  } else {
    await db.execute(sql`update chat_conversations
      set staff_read_id = greatest(staff_read_id, least(${upTo}, ${last})) where id = ${conversationId}`);
  }
}

export async function setStatus(db: Executor, id: number, status: 'open' | 'closed', by: number): Promise<void> {
  if (status === 'closed') {
    await db.execute(sql`update chat_conversations set status = 'closed', closed_at = now(), closed_by = ${by},
      awaiting_since = null, unanswered_mailed_at = null where id = ${id}`);
  } else {
    await db.execute(sql`update chat_conversations set status = 'open', closed_at = null, closed_by = null
      where id = ${id}`);
  }
}

/** Whether the user has an open conversation other than `id`. */
export async function hasOtherOpen(db: Executor, userId: number, id: number): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from chat_conversations where user_id = ${userId} and status = 'open' and id <> ${id}`,
  );
  return found.length > 0;
}

/**
 * Claims, once across every process, the open conversations whose user has waited since before `cutoff`: the
 * update re-checks `unanswered_mailed_at is null` under the row lock, so a second process claims nothing.
 */
export async function claimUnanswered(
  db: Executor,
  cutoff: Date,
): Promise<{ id: number; userId: number; awaitingSince: string }[]> {
  const found = await rows<{ id: number; user_id: number; awaiting_since: Date }>(
    db,
    sql`update chat_conversations set unanswered_mailed_at = now()
      where status = 'open' and awaiting_since is not null and awaiting_since <= ${cutoff.toISOString()}::timestamptz
        and unanswered_mailed_at is null
      returning id, user_id, awaiting_since`,
  );
  return found.map((r) => ({ id: r.id, userId: r.user_id, awaitingSince: iso(r.awaiting_since) }));
}
