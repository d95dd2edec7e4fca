/**
 * The delivery worker (decision 0066), run by every process with WEBHOOK_WORKER on (the default): every second, and
 * as soon as the next retry is due when that is sooner, it claims due deliveries (claims.ts), sends them at once
 * outside any transaction (sender.ts), records each outcome and schedules the next attempt by WEBHOOK_RETRY_SCHEDULE
 * plus up to 10 % jitter, so endpoints that failed together do not all retry in the same instant. The claims'
 * lease is what makes it run once across processes and nodes; a process that stops mid-send leaves its deliveries
 * to whoever claims them after the lease. Logs carry delivery and endpoint ids and statuses, never a URL, a body or
 * a secret.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client';
import { periodicJob } from '../../jobs/periodic';
import type { Sealer } from '../keys/secrets';
import { type Claimed, claimDue, type Outcome, recordOutcome, untilNextDue } from './claims';
import type { EndpointRow } from './repo';
import { sendAttempt } from './sender';
import type { WebhookSettings } from './settings';
import { deliveryHeaders, signingSecrets, UnreadableSecret } from './signing';

/** How often each process looks for due deliveries when no retry is due sooner. */
export const POLL_MS = 1000;
/** Deliveries claimed (and sent at once) per round. */
export const BATCH = 16;
/** The jitter added to each wait: up to this share of it. */
export const JITTER = 0.1;

export interface WorkerDeps {
  database: Database;
  sealer: Sealer;
  settings: WebhookSettings;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Told of an endpoint that the run of failures just disabled (after the commit). */
  onDisabled(endpoint: EndpointRow): Promise<void>;
}

/** What a delivered-hook is told about the delivery that succeeded. */
export interface DeliveredEvent {
  deliveryId: number;
  endpointId: number;
  organizationId: number;
  messageId: string;
  eventType: string;
}

export type DeliveredHook = (tx: Tx, event: DeliveredEvent) => Promise<void>;

export interface WebhookWorker {
  /**
   * Runs `hook` whenever a delivery of an event of `type` succeeds, inside the transaction that records the success
   * (so what it writes, e.g. the usage row that bills the event, commits exactly once with it; a replay is a new
   * delivery and runs it again). A hook that throws rolls the record back: the attempt is made again.
   */
  onDelivered(type: string, hook: DeliveredHook): void;
  /** Delivers what is due now (tests; the timer does the same). Answers the attempts made. */
  runOnce(): Promise<number>;
  /** Starts the timer (a second start does nothing). */
  start(): void;
  /** Asks for a round soon (after an event was committed), rather than at the next poll. */
  kick(): void;
  /** Stops the timer and waits for the sends under way (each bounded by WEBHOOK_TIMEOUT_MS). */
  stop(): Promise<void>;
}

/** The wait before attempt `next` (1-based) after a failed one, or null when the schedule has no more. */
export function retryDelay(schedule: number[], next: number, random = Math.random()): number | null {
  const base = schedule[next - 1];
  return base === undefined ? null : base + base * JITTER * random;
}

export function createWebhookWorker(deps: WorkerDeps): WebhookWorker {
  const { database, sealer, settings, logger } = deps;
  const schedule = settings.retryScheduleMs;
  // Longer than any attempt can take: a lease that ends is one whose worker stopped.
  const leaseMs = settings.timeoutMs * 2 + 30_000;
  let wake: NodeJS.Timeout | null = null;
  let started = false;
  const hooks = new Map<string, DeliveredHook[]>();

  /** The delivered-hooks of the claim's event type, as one, or undefined when there are none. */
  function deliveredHook(claim: Claimed): ((tx: Tx) => Promise<void>) | undefined {
    const list = hooks.get(claim.eventType);
    if (!list?.length) return undefined;
    const event: DeliveredEvent = {
      deliveryId: claim.deliveryId,
      endpointId: claim.endpointId,
      organizationId: claim.organizationId,
      messageId: claim.messageId,
      eventType: claim.eventType,
    };
    return async (tx) => {
      for (const hook of list) await hook(tx, event);
    };
  }

  async function attempt(claim: Claimed): Promise<void> {
    let outcome: Omit<Outcome, 'retryInMs'>;
    try {
      const at = new Date();
      const secrets = await signingSecrets(sealer, claim, at);
      const result = await sendAttempt({
        url: claim.url,
        headers: deliveryHeaders(secrets, claim.messageId, at, claim.payload),
        body: claim.payload,
        timeoutMs: settings.timeoutMs,
        allowPrivate: settings.allowPrivate,
      });
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      outcome = { ok, ...result };
    } catch (error) {
      const message = error instanceof UnreadableSecret ? error.message : 'The delivery could not be prepared.';
      outcome = { ok: false, statusCode: null, error: message, latencyMs: 0, excerpt: '' };
    }
    const retryInMs = outcome.ok ? null : retryDelay(schedule, claim.attempt + 1);
    const recorded = await recordOutcome(
      database,
      claim,
      { ...outcome, retryInMs },
      settings.disableAfterFailures,
      deliveredHook(claim),
    );
    if (!recorded.recorded) {
      logger.warn({ deliveryId: claim.deliveryId }, 'webhook delivery lease lost: outcome not recorded');
      return;
    }
    if (!outcome.ok && retryInMs === null) {
      logger.info({ deliveryId: claim.deliveryId, endpointId: claim.endpointId }, 'webhook delivery failed');
    }
    if (recorded.disabled) {
      logger.warn({ endpointId: claim.endpointId, organizationId: claim.organizationId }, 'webhook endpoint disabled');
      await deps.onDisabled(recorded.disabled).catch(() => undefined);
    }
  }

  async function round(stopping: () => boolean): Promise<number> {
    let attempts = 0;
    for (;;) {
      const token = randomUUID();
      const claims = await claimDue(database, { limit: BATCH, leaseMs, token, maxAttempts: schedule.length });
      await Promise.all(
        claims.map((claim) =>
          attempt(claim).catch((error: unknown) => {
            // Unrecorded: the lease ends and the delivery is claimed again (its attempt marked interrupted).
            logger.warn(
              { deliveryId: claim.deliveryId, code: (error as { code?: unknown })?.code },
              'webhook record failed',
            );
          }),
        ),
      );
      attempts += claims.length;
      if (claims.length < BATCH || stopping()) break;
    }
    if (started && !stopping()) {
      const due = await untilNextDue(database);
      if (due !== null && due < POLL_MS) soon(Math.max(due, 5));
    }
    return attempts;
  }

  const job = periodicJob({ name: 'webhook deliveries', run: round, logger });

  function soon(ms: number): void {
    if (!started) return;
    if (wake) clearTimeout(wake);
    wake = setTimeout(() => {
      wake = null;
      job.runOnce().catch((error: unknown) => {
        logger.warn({ code: (error as { code?: unknown })?.code }, 'webhook deliveries failed');
      });
    }, ms);
    wake.unref();
  }

  return {
    onDelivered(type, hook) {
      hooks.set(type, [...(hooks.get(type) ?? []), hook]);
    },
    runOnce: () => job.runOnce(),
    start() {
      if (started) return;
      started = true;
      job.start(POLL_MS);
    },
    kick: () => soon(0),
    async stop() {
      started = false;
      if (wake) clearTimeout(wake);
      wake = null;
      await job.stop();
    },
  };
}
