/** Spec §7 socket: `[name, payload]` messages, their payload schemas and channel names. */
import { hasRank, type Role } from './roles';
import { canSubscribeChat } from './support-chat';

export const SOCKET_PATH = '/ws';

/** Browser to server: `[name, payload]` (validated on the server by `schemas/socket.ts`). */
export type ClientMessage =
  | ['hit', { index: number; url: string }]
  | ['subscribe', string]
  | ['unsubscribe', string]
  | ['clear', null?]
  | ['beforeunload', null?]
  | ['clientError', string];
export type ClientMessageName = ClientMessage[0];

/** The longest client error stack the server accepts. */
export const CLIENT_ERROR_MAX_CHARS = 16_000;
export const HIT_URL_MAX_CHARS = 2048;

/** Server to browser: a keyed object to merge, or a refusal naming what was refused. */
export type ServerMessage =
  | ['push', Record<string, unknown>]
  | ['subscribed', string]
  | ['unsubscribed', string]
  | ['refused', { message: string; channel?: string }];

export function selfChannel(userId: number): string {
  return `self:${userId}`;
}

export function organizationChannel(organizationId: number): string {
  return `organization:${organizationId}`;
}

/** Close codes used by the server. */
export const SOCKET_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  sessionEnded: 4001,
} as const;

interface Subscriber {
  id: number;
  role: Role;
  organizationId: number | null;
}

/**
 * Who may listen where: `self:{id}` only that user; `organization:{id}` its members (user or above) and
 * super+; `system:*` super+; `chat:{userId}` that user and super+ (support-chat.ts). The server enforces
 * this; the client only asks for what it may have.
 */
/** `system:*` channels that need more than super: the Clusters page's (issue 20) is root's. */
const SYSTEM_CHANNEL_RANKS: Record<string, Role> = { clusters: 'root', deployments: 'root' }; // deployments: issue 21

export function canSubscribe(user: Subscriber, channel: string): boolean {
  const [kind, id] = channel.split(':');
  if (user.id === 0) return false;
  if (kind === 'self') return Number(id) === user.id;
  if (kind === 'organization') {
    return hasRank(user.role, 'super') || (hasRank(user.role, 'user') && Number(id) === user.organizationId);
  }
  if (kind === 'system') return hasRank(user.role, SYSTEM_CHANNEL_RANKS[id ?? ''] ?? 'super');
  if (kind === 'chat') return canSubscribeChat(user, id); // a support conversation: its user and staff
  return false;
}
