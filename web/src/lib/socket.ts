/**
 * The console socket (spec §4, §7): reconnects 1 s after any close, queues messages while away, and merges
 * pushed keyed objects through the store like HTTP replies.
 */
import { readNotice } from '@tessera/common/alerts';
import { RECONNECT_DELAY_MS } from '@tessera/common/constants';
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import { type ClientMessage, organizationChannel, SOCKET_PATH, selfChannel } from '@tessera/common/socket';
import { sessionEndedByServer } from './session';
import { useStore } from './store';

const JOURNEY_KEY = 'tessera-journey';
/** Fewer than the server lets a socket send per second, so a reconnect's flush is never taken for a flood. */
const MAX_QUEUE = 30;

/** Reload when the server version changes after the first value (spec §1). */
export function versionWatcher(reload: () => void) {
  let first: string | null = null;
  return (version: string) => {
    if (first === null) first = version;
    else if (version !== first) reload();
  };
}

export class SocketClient {
  private ws: WebSocket | null = null;
  private queue: string[] = [];
  private channels = new Set<string>();
  /** Channels the open page follows (e.g. a support conversation), beside the user's own. */
  private pageChannels = new Map<string, number>();
  private retry: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private followedUserId: number | null = null;
  private readonly onVersion = versionWatcher(() => window.location.reload());

  constructor(private readonly makeUrl: () => string = defaultUrl) {}

  connect(): void {
    this.stopped = false;
    clearTimeout(this.retry);
    const ws = new WebSocket(this.makeUrl());
    this.ws = ws;
    ws.onopen = () => {
      useStore.getState().set({ online: true });
      for (const channel of this.channels) ws.send(JSON.stringify(['subscribe', channel]));
      for (const channel of this.pageChannels.keys()) ws.send(JSON.stringify(['subscribe', channel]));
      for (const text of this.queue.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => this.receive(String(event.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      useStore.getState().set({ online: false });
      if (!this.stopped) this.retry = setTimeout(() => this.connect(), RECONNECT_DELAY_MS);
    };
  }

  /** Reconnects now, e.g. after sign-in, so the server reads the new session at the handshake. */
  reconnect(): void {
    const old = this.ws;
    this.ws = null;
    old?.close(1000, 'Reconnecting');
    this.connect();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.ws?.close(1000, 'Closed');
    this.ws = null;
  }

  send(message: ClientMessage): void {
    const text = JSON.stringify(message);
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (this.queue.length < MAX_QUEUE) this.queue.push(text);
  }

  /**
   * Spec §7 `clear`, sent at a navigation as the page model is cleared: the server drops every subscription of
   * this socket, the page's with the rest, so the channels the socket follows for the user are asked for again
   * right behind it. A socket that is not open has nothing to clear: it subscribes afresh when it opens.
   */
  clear(): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify(['clear', null] satisfies ClientMessage));
    for (const channel of this.channels) this.ws.send(JSON.stringify(['subscribe', channel] satisfies ClientMessage));
    for (const channel of this.pageChannels.keys()) {
      this.ws.send(JSON.stringify(['subscribe', channel] satisfies ClientMessage));
    }
  }

  /**
   * Follows a channel while a page needs it (subscribed again after every reconnect and navigation clear);
   * returns the function that stops following it. The server decides whether the user may.
   */
  watch(channel: string): () => void {
    const count = this.pageChannels.get(channel) ?? 0;
    this.pageChannels.set(channel, count + 1);
    if (count === 0 && !this.channels.has(channel)) this.send(['subscribe', channel]);
    return () => {
      const left = (this.pageChannels.get(channel) ?? 1) - 1;
      if (left > 0) {
        this.pageChannels.set(channel, left);
        return;
      }
      this.pageChannels.delete(channel);
      if (!this.channels.has(channel) && this.ws?.readyState === WebSocket.OPEN) {
        this.ws.send(JSON.stringify(['unsubscribe', channel] satisfies ClientMessage));
      }
    };
  }

  /**
   * Follows the signed-in user: their self channel, and their organization's when they belong to one.
   * When the user changes (sign-in, sign-out) the socket reconnects, because the server reads the session
   * at the handshake; the open handler then subscribes to the new channels.
   */
  follow(user: User): void {
    const wanted = new Set<string>();
    if (user.id !== 0) wanted.add(selfChannel(user.id));
    if (user.organizationId !== null && hasRank(user.role, 'user'))
      wanted.add(organizationChannel(user.organizationId));
    const changedUser = this.followedUserId !== null && this.followedUserId !== user.id;
    this.followedUserId = user.id;
    const previous = this.channels;
    this.channels = wanted;
    if (changedUser) {
      this.reconnect();
      return;
    }
    if (this.ws?.readyState !== WebSocket.OPEN) return; // the open handler subscribes
    for (const channel of previous) if (!wanted.has(channel)) this.ws.send(JSON.stringify(['unsubscribe', channel]));
    for (const channel of wanted) if (!previous.has(channel)) this.ws.send(JSON.stringify(['subscribe', channel]));
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(message) || message[0] !== 'push' || typeof message[1] !== 'object') return;
    const payload = message[1] as Record<string, unknown>;
    if (typeof payload.journeyId === 'string') sessionStorage.setItem(JOURNEY_KEY, payload.journeyId);
    if (typeof payload.version === 'string') this.onVersion(payload.version);
    // A notice (a usage alert, decision 0029) joins the alert stack rather than the data areas.
    const { self, notice, ...rest } = payload;
    const alert = readNotice(notice);
    if (alert) useStore.getState().addAlert(alert);
    if (self && typeof self === 'object' && (self as User).id === 0) sessionEndedByServer();
    else if (self) useStore.getState().merge({ self });
    if (Object.keys(rest).length > 0) useStore.getState().merge(rest);
  }
}

function defaultUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const params = new URLSearchParams({ url: window.location.href });
  const journeyId = sessionStorage.getItem(JOURNEY_KEY);
  if (journeyId) params.set('journeyId', journeyId);
  return `${protocol}//${window.location.host}${SOCKET_PATH}?${params}`;
}

export const socket = new SocketClient();
