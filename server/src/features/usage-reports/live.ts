/**
 * Usage as it happens (issue 16): after a call's usage is durable, the consoles that may read it hear of it, so an
 * open usage page or home page refreshes within seconds. At most one push a second per channel, whatever the rate
 * of calls: `usage: {[userId]: {id, lastCallAt}}` on the caller's own channel, and the same on their organization's
 * channel for administrators only (a member may not read a colleague's usage, scope.ts).
 */
import { organizationChannel, selfChannel } from '@tessera/common/socket';
import type { Hub } from '../../socket/hub';
import type { Metering, UsageEvent } from '../usage/metering';

type Usage = Record<string, { id: number; lastCallAt: string }>;

export const PUSH_INTERVAL_MS = 1000;

export function notifyingMetering(inner: Metering, hub: Hub, intervalMs = PUSH_INTERVAL_MS): Metering {
  const pending = new Map<string, { usage: Usage; admins: boolean }>();
  let timer: NodeJS.Timeout | null = null;

  function flush() {
    timer = null;
    const batch = [...pending];
    pending.clear();
    for (const [channel, { usage, admins }] of batch) {
      hub.publish(channel, { usage }, admins ? { minRank: 'admin' } : {}).catch(() => {
        // A lost notice only delays a page's refresh; the usage itself is recorded.
      });
    }
  }

  function add(channel: string, event: UsageEvent, admins: boolean) {
    const entry = pending.get(channel) ?? { usage: {}, admins };
    entry.usage[event.userId] = { id: event.userId, lastCallAt: new Date().toISOString() };
    pending.set(channel, entry);
  }

  return {
    async record(event) {
      await inner.record(event);
      add(selfChannel(event.userId), event, false);
      if (event.organizationId !== null) add(organizationChannel(event.organizationId), event, true);
      if (!timer) {
        timer = setTimeout(flush, intervalMs);
        timer.unref();
      }
    },
  };
}
