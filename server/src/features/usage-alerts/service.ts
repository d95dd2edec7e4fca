/**
 * Usage alerts as a running service (decision 0029): after usage is durable, the caller's organization is
 * evaluated, at most once per `intervalMs` per organization and process (calls in between are folded into the next
 * evaluation, never dropped); a firing is pushed to the organization's administrators as a console `notice` and
 * mailed to each of them. Logs carry organization ids and kinds, never addresses.
 */
import { organizationChannel } from '@tessera/common/socket';
import { usageAlertOf } from '@tessera/common/usage-alerts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { Mailer } from '../../mail';
import type { Hub } from '../../socket/hub';
import type { Metering } from '../usage/metering';
import { evaluateOrganization, type Fired } from './evaluate';
import { organizationLink, usageAlertMail } from './mail';
import { organizationAdmins } from './repo';

export const EVALUATE_EVERY_MS = 1000;

export interface UsageAlertDeps {
  database: Database;
  hub: Pick<Hub, 'publish'>;
  mailer: Pick<Mailer, 'send'>;
  publicUrl: URL;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  now?: () => number;
  intervalMs?: number;
}

interface Slot {
  running: Promise<void> | null;
  timer: NodeJS.Timeout | null;
  again: boolean;
  last: number;
}

export function createUsageAlerts(deps: UsageAlertDeps) {
  const { database, hub, mailer, publicUrl, logger } = deps;
  const now = deps.now ?? Date.now;
  const intervalMs = deps.intervalMs ?? EVALUATE_EVERY_MS;
  const slots = new Map<number, Slot>();
  let closed = false;

  async function notify({ organizationName, firing }: Fired): Promise<void> {
    const alert = usageAlertOf(firing, organizationName);
    const { organizationId } = firing;
    logger.info({ organizationId, kind: firing.kind, share: firing.share, period: firing.period }, 'usage alert');
    await hub
      .publish(organizationChannel(organizationId), { notice: alert, usageAlertFired: firing }, { minRank: 'admin' })
      .catch(() => {
        // The firing stays readable on the organization's page; the mail below still goes.
      });
    const link = organizationLink(publicUrl, organizationId);
    for (const admin of await organizationAdmins(database.db, organizationId)) {
      mailer.send(usageAlertMail({ to: admin.email, name: admin.name, alert, organizationName, link }));
    }
  }

  /** Evaluates an organization now and notifies what this call fired. */
  async function evaluate(organizationId: number): Promise<Fired[]> {
    const fired = await evaluateOrganization(database, organizationId, now());
    for (const f of fired) await notify(f);
    return fired;
  }

  function run(organizationId: number, slot: Slot): void {
    slot.timer = null;
    slot.again = false;
    slot.last = now();
    slot.running = evaluate(organizationId)
      .then(
        () => undefined,
        (error: unknown) => {
          logger.warn({ organizationId, code: (error as { code?: unknown })?.code }, 'usage alert check failed');
        },
      )
      .finally(() => {
        slot.running = null;
        if (slot.again && !closed) schedule(organizationId, slot);
      });
  }

  function schedule(organizationId: number, slot: Slot): void {
    const wait = slot.last + intervalMs - now();
    if (wait <= 0) {
      run(organizationId, slot);
      return;
    }
    slot.timer = setTimeout(() => run(organizationId, slot), wait);
    slot.timer.unref();
  }

  /** Asks for an evaluation of the organization soon: now, or when its interval since the last one has passed. */
  function touch(organizationId: number): void {
    if (closed) return;
    let slot = slots.get(organizationId);
    if (!slot) {
      slot = { running: null, timer: null, again: false, last: Number.NEGATIVE_INFINITY };
      slots.set(organizationId, slot);
    }
    if (slot.running || slot.timer) {
      slot.again = true;
      return;
    }
    schedule(organizationId, slot);
  }

  /** Resolves once no evaluation is running or waiting (tests: "the checks are done now"). */
  async function settle(): Promise<void> {
    for (;;) {
      const pending = [...slots].filter(([, s]) => s.running || s.timer);
      if (pending.length === 0) return;
      for (const [id, slot] of pending) {
        if (slot.timer) {
          clearTimeout(slot.timer);
          run(id, slot);
        }
      }
      await Promise.all(pending.map(([, s]) => s.running));
    }
  }

  return {
    evaluate,
    touch,
    settle,
    /** Metering that asks for an evaluation of the caller's organization once a call's usage is durable. */
    watching(inner: Metering): Metering {
      return {
        async record(event) {
          await inner.record(event);
          if (event.organizationId !== null) touch(event.organizationId);
        },
      };
    },
    async close(): Promise<void> {
      closed = true;
      for (const slot of slots.values()) if (slot.timer) clearTimeout(slot.timer);
      await Promise.all([...slots.values()].map((s) => s.running));
    },
  };
}

export type UsageAlertService = ReturnType<typeof createUsageAlerts>;
