/**
 * Support Chat (issue 18 items 4 and 6, decision 0032): limits, messages, shapes and channel rules shared by the
 * server and the console. A signed-in user (user rank or above) has at most one open conversation; staff (super+)
 * answer every conversation.
 */
import { hasRank, type Role } from './roles';

export const CHAT_LIMITS = {
  /** Characters of one message, after trimming. */
  message: 2000,
  /** Messages one page of a conversation holds (spec §9 items per page). */
  page: 100,
  /** Conversations one queue reply holds. */
  queue: 100,
} as const;

/** How often a composer may say "typing" while its writer keeps typing, and how long the indicator lasts. */
export const CHAT_TYPING = { sendEveryMs: 3000, showForMs: 6000 } as const;

/** How often the user's page asks whether a staff member is connected. */
export const CHAT_PRESENCE_POLL_MS = 30_000;

export const CHAT_WHAT = { message: 'a message' } as const;

export const CHAT_MESSAGES = {
  /** A staff-only action or list asked for below super. */
  staffOnly: 'Only system administrators can do this in the support chat.',
  /** Someone else's conversation. */
  notYours: 'You may only read your own support conversation.',
  notFound: 'There is no such conversation.',
  closed: 'This conversation is closed. Start a new conversation to write to us again.',
  alreadyClosed: 'This conversation is already closed.',
  alreadyOpen: 'This conversation is already open.',
  /** Reopening while the user has started another one. */
  otherOpen: 'This user already has another open conversation.',
  tooMany: 'You are sending messages too quickly. Please wait and try again.',
  /** The user's page, when no staff member is connected. */
  noStaff: 'No one from our team is online right now. Leave your message here: we will answer by email.',
  signIn: 'Sign in to chat with our support team, or write to us through the contact form.',
} as const;

export type ChatSide = 'user' | 'staff';

/** Whether a role answers conversations (staff) rather than only keeping its own. */
export const isChatStaff = (role: Role) => hasRank(role, 'super');

/** Whether a role may use the chat at all: signed in and past the agreement. */
export const canChat = (role: Role) => hasRank(role, 'user');

export interface ChatConversation {
  id: number;
  userId: number;
  /** The user's name and e-mail, for staff. */
  userName: string;
  userEmail: string;
  status: 'open' | 'closed';
  createdAt: string;
  /** When the last message was written (or the conversation opened). */
  lastMessageAt: string;
  /** The start of the user's wait for an answer; null once staff answered. */
  awaitingSince: string | null;
  closedAt: string | null;
  /** The last message id each side has read. */
  userReadId: number;
  staffReadId: number;
  /** Messages of the other side each side has not read. */
  unreadByUser: number;
  unreadByStaff: number;
}

export interface ChatMessage {
  id: number;
  conversationId: number;
  authorId: number;
  fromStaff: boolean;
  body: string;
  createdAt: string;
}

export interface ChatTyping {
  conversationId: number;
  side: ChatSide;
  /** The writer, so the writer's own tabs can ignore it. */
  userId: number;
}

export interface ChatPresence {
  staffOnline: boolean;
}

/** A conversation's channel: its user's tabs and staff listen there (`chat:{userId}`). */
export const chatChannel = (userId: number) => `chat:${userId}`;

/** Staff's queue: every conversation's changes. */
export const CHAT_QUEUE_CHANNEL = 'system:chat';

/** `chat:{id}`: that user (of user rank or above) and staff; nobody else. */
export function canSubscribeChat(user: { id: number; role: Role }, id: string | undefined): boolean {
  if (!canChat(user.role) || id === undefined || !/^[1-9][0-9]{0,9}$/.test(id)) return false;
  return Number(id) === user.id || isChatStaff(user.role);
}
