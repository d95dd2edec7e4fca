/**
 * Open sockets, their channels, and delivery of pushes arriving from the fan-out. A push reaches a connection only
 * if its user may still listen on the channel and meets the push's audience (checked per connection at delivery,
 * with the user the connection has then), so pushes follow the same visibility rules as the REST replies.
 */
import { ANONYMOUS_USER, type User } from '@tessera/common/entities';
import { hasRank, isRole, type Role } from '@tessera/common/roles';
import { canSubscribe, type ServerMessage, SOCKET_CLOSE } from '@tessera/common/socket';
import type { WebSocket } from 'ws';
import { socketConnections } from '../observability/metrics';
import type { Fanout, FanoutMessage } from './fanout';

export interface Connection {
  socket: WebSocket;
  user: User;
  sessionId: number | null;
  journeyId: string;
  channels: Set<string>;
}

/** Who on a channel may receive a push: data, not a function, because it travels through Redis as JSON. */
export interface Audience {
  /** Only users of at least this rank (e.g. an organization's keys: its admins, and super+ listening there). */
  minRank?: Role;
}

/** Whether a push reaches a connection; an audience it cannot read reaches no one. */
function reaches(conn: Connection, message: Extract<FanoutMessage, { kind: 'push' }>): boolean {
  if (!canSubscribe(conn.user, message.channel)) return false;
  if (message.minRank === undefined) return true;
  return isRole(message.minRank) && hasRank(conn.user.role, message.minRank);
}

export function send(conn: Connection, message: ServerMessage): void {
  if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(JSON.stringify(message));
}

export function createHub(fanout: Fanout) {
  const connections = new Set<Connection>();
  const channels = new Map<string, Set<Connection>>();
  /** The version told to browsers when it differs from the build's (features/deployments/register.ts). */
  let version: string | null = null;
  /** Told how many of this process's sockets are on a channel whenever one joins or leaves it. */
  const watchers = new Map<string, (members: number) => void>();

  function leave(conn: Connection, channel: string): void {
    conn.channels.delete(channel);
    const members = channels.get(channel);
    members?.delete(conn);
    if (members?.size === 0) channels.delete(channel);
    watchers.get(channel)?.(members?.size ?? 0);
  }

  function deliver(message: FanoutMessage): void {
    if (message.kind === 'push') {
      for (const conn of channels.get(message.channel) ?? []) {
        if (reaches(conn, message)) send(conn, ['push', message.payload]);
      }
      return;
    }
    if (message.kind === 'rotateSession') {
      // The same browser got a new session token (privilege change): its sockets follow the new session.
      for (const conn of connections) {
        if (conn.sessionId !== message.from) continue;
        conn.sessionId = message.to;
        conn.user = message.user;
        // The new user may see less (impersonating someone below, or demoted): leave what they may not join.
        for (const channel of [...conn.channels]) if (!canSubscribe(message.user, channel)) leave(conn, channel);
        send(conn, ['push', { self: message.user }]);
      }
      return;
    }
    if (message.kind === 'version') {
      version = message.version;
      for (const conn of connections) send(conn, ['push', { version }]);
      return;
    }
    if (message.kind !== 'endSession') return; // API key changes: the key verifier listens for those
    for (const conn of connections) {
      if (conn.sessionId !== message.sessionId) continue;
      send(conn, ['push', { self: ANONYMOUS_USER }]);
      conn.socket.close(SOCKET_CLOSE.sessionEnded, 'Session ended');
    }
  }
  fanout.onMessage(deliver);

  return {
    add(conn: Connection): void {
      if (!connections.has(conn)) socketConnections.inc();
      connections.add(conn);
    },
    remove(conn: Connection): void {
      for (const channel of [...conn.channels]) leave(conn, channel);
      if (connections.delete(conn)) socketConnections.dec();
    },
    /** Joins a channel if the connection's user may; returns whether it did. */
    subscribe(conn: Connection, channel: string): boolean {
      if (!canSubscribe(conn.user, channel)) return false;
      conn.channels.add(channel);
      const members = channels.get(channel) ?? new Set<Connection>();
      channels.set(channel, members);
      members.add(conn);
      watchers.get(channel)?.(members.size);
      return true;
    },
    /** Follows how many of this process's sockets listen on `channel` (one watcher per channel). */
    watchChannel(channel: string, watcher: (members: number) => void): void {
      watchers.set(channel, watcher);
    },
    unsubscribe: leave,
    clear(conn: Connection): void {
      for (const channel of [...conn.channels]) leave(conn, channel);
    },
    /**
     * Sends a keyed object to every browser on `channel` that the audience admits, on every server process. Give
     * the audience the REST reply's rule for whatever the payload holds, where the channel's own rule is wider.
     */
    publish(channel: string, payload: Record<string, unknown>, audience: Audience = {}): Promise<void> {
      return fanout.publish({ kind: 'push', channel, payload, ...audience });
    },
    /** Tells every process to sign out and close the sockets of a session. */
    endSession(sessionId: number): Promise<void> {
      return fanout.publish({ kind: 'endSession', sessionId });
    },
    /** Moves a session's sockets, on every process, to the session that replaced it. */
    rotateSession(from: number, to: number, user: User): Promise<void> {
      return fanout.publish({ kind: 'rotateSession', from, to, user });
    },
    /** Tells every process that a user's standing changed (API key checks they cached are dropped). */
    userChanged(userId: number): Promise<void> {
      return fanout.publish({ kind: 'userChanged', userId });
    },
    closeAll(code: number = SOCKET_CLOSE.goingAway, reason = 'Server shutting down'): void {
      for (const conn of connections) conn.socket.close(code, reason);
    },
    get size(): number {
      return connections.size;
    },
    /** The version told to a socket as it opens; null: the build's. */
    get version(): string | null {
      return version;
    },
    /** Sets the told version in this process only (at start, from the database). */
    setVersion(next: string | null): void {
      version = next;
    },
    /** Tells every process, and every open page, a new version: pages reload (spec §1). */
    announceVersion(next: string): Promise<void> {
      return fanout.publish({ kind: 'version', version: next });
    },
    /** The users of this process's connections on a channel (e.g. staff watching the support chat queue). */
    listeners(channel: string): User[] {
      return [...(channels.get(channel) ?? [])].map((conn) => conn.user);
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
