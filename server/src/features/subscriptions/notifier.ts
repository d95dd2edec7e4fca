/**
 * The notifier (decision 0067): run by every process where webhook deliveries are sent (WEBHOOK_WORKER), every
 * second it claims captured changes (changes.ts) and makes their events, off the write path. The changes of one
 * identity claimed together make one event per subscription: the diff from the oldest old record to the record as it
 * is now (read now, so a suppression since is honoured), over what the subscription's owner may see; the new record
 * shaped by the subscription's template; and, in one transaction, the events enqueued (enqueueWebhookEvent) and the
 * changes deleted. A person suppressed now gets, for a change of the suppression list, an event saying only
 * `suppressed: true`: nothing personal goes out. An empty diff sends nothing. A subscription by input is resolved
 * again, and moved (the event says `movedFrom`) when someone else holds the input now. An organization that may not
 * call now (billing refuses it: no contract in force, suspended, its monthly limit spent) gets no change event, as it
 * would get no lookup; the change is not kept for later. The notice that a person was suppressed goes out regardless:
 * it holds nothing but ids, and tells the subscriber to forget them. Logs carry counts and ids only.
 */
import { randomUUID } from 'node:crypto';
import type { RecordType } from '@tessera/common/record-types';
import type { IdentityChangedData, SubscriptionInput } from '@tessera/common/subscriptions';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { periodicJob } from '../../jobs/periodic';
import type { LookupCaller } from '../identities/caller';
import { restrictRecord, visibleTypes } from '../identities/record-sql';
import { loadRecords } from '../identities/search';
import { TemplateError } from '../templates/evaluate';
import type { TemplateStore } from '../templates/store';
import { TEMPLATE_MESSAGES } from '../templates/store';
import { enqueueWebhookEvent } from '../webhooks/enqueue';
import {
  type ClaimedChange,
  claimChanges,
  finishChanges,
  type LiveSubscription,
  moveSubscription,
  personSuppressed,
  subscriptionsOf,
} from './changes';
import { isEmpty, recordChanges } from './diff';
import { resolveInput } from './resolve';

export const NOTIFY_POLL_MS = 1000;
/** Changes claimed per round. */
export const NOTIFY_BATCH = 100;
/** Longer than a batch's templates can take: a lease that ends is one whose process stopped. */
export const NOTIFY_LEASE_MS = 5 * 60_000;

export interface NotifierDeps {
  database: Database;
  templates: TemplateStore;
  logger: Pick<FastifyBaseLogger, 'warn'>;
  /**
   * Whether the organization may be served now, as a lookup of its would be admitted (contracts/billing.ts), for the
   * subscription's permissible purpose.
   */
  mayServe(organizationId: number, purpose: string | null): Promise<boolean>;
  /** Asks the webhook worker to send now (after events were committed). */
  kick(): void;
}

export interface Notifier {
  /** One pass over what is captured now (tests; the timer does the same): the events enqueued. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** The record types the subscription's owner may see: the key's within its user's (empty: all). */
function typesOf(s: LiveSubscription): Set<RecordType> {
  const user = s.userTypes;
  const key = s.keyTypes ?? [];
  const allowed = key.length === 0 ? user : user.length === 0 ? key : key.filter((t) => user.includes(t));
  // A key and user whose lists share nothing may see nothing: a name no record type has grants none.
  return visibleTypes(key.length > 0 && user.length > 0 && allowed.length === 0 ? ['-'] : allowed);
}

const callerOf = (s: LiveSubscription): LookupCaller => ({
  userId: s.userId,
  organizationId: s.organizationId,
  role: s.role as LookupCaller['role'],
  allowedRecordTypes: [],
  keyId: s.keyId,
  rateLimit: null,
  mode: 'live',
});

interface Planned {
  organizationId: number;
  data: IdentityChangedData;
  move?: { subscriptionId: number; identityId: number };
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const { database, templates, logger } = deps;

  async function shape(
    s: LiveSubscription,
    record: Record<string, unknown>,
  ): Promise<{ record: Record<string, unknown> | null; templateError?: string }> {
    try {
      const template = await templates.resolve(s.templateId, callerOf(s));
      if (!template) return { record: null, templateError: TEMPLATE_MESSAGES.unknown(s.templateId) };
      return { record: await template.compiled.apply(record) };
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      return { record: null, templateError: error.message };
    }
  }

  /** The events one identity's changes make. */
  async function plan(identityId: number, changes: ClaimedChange[]): Promise<Planned[]> {
    const subscriptions = await subscriptionsOf(database.db, identityId);
    if (subscriptions.length === 0) return [];
    const bySuppression = changes.some((c) => c.cause === 'suppression');
    if (await personSuppressed(database.db, identityId)) {
      if (!bySuppression) return [];
      return subscriptions.map((s) => ({
        organizationId: s.organizationId,
        data: { subscriptionId: s.id, identityId, suppressed: true },
      }));
    }
    const before = changes[0]!.oldRecord;
    const out: Planned[] = [];
    for (const s of subscriptions) {
      if (!(await deps.mayServe(s.organizationId, s.purpose))) continue;
      let target = identityId;
      if (s.inputKind && s.inputValue !== null) {
        const now = await resolveInput(database, s.inputKind as SubscriptionInput, s.inputValue);
        if (now !== null) target = now;
      }
      const types = typesOf(s);
      const current = (await loadRecords(database, [target], types)).get(target);
      if (!current) continue;
      const changed = recordChanges(before ? restrictRecord(before, types) : null, current);
      const moved = target !== identityId;
      if (isEmpty(changed) && !moved) continue;
      const shaped = await shape(s, current);
      out.push({
        organizationId: s.organizationId,
        data: {
          subscriptionId: s.id,
          identityId: target,
          suppressed: false,
          cause: bySuppression ? 'suppression' : 'import',
          changes: changed,
          ...shaped,
          ...(moved ? { movedFrom: identityId } : {}),
        },
        ...(moved ? { move: { subscriptionId: s.id, identityId: target } } : {}),
      });
    }
    return out;
  }

  async function round(stopping: () => boolean): Promise<number> {
    let enqueued = 0;
    for (;;) {
      const token = randomUUID();
      const claimed = await claimChanges(database, { limit: NOTIFY_BATCH, leaseMs: NOTIFY_LEASE_MS, token });
      const byIdentity = new Map<number, ClaimedChange[]>();
      for (const c of claimed) byIdentity.set(c.identityId, [...(byIdentity.get(c.identityId) ?? []), c]);
      for (const [identityId, changes] of byIdentity) {
        try {
          const planned = await plan(identityId, changes);
          await database.transaction(async (tx) => {
            const done = await finishChanges(
              tx,
              changes.map((c) => c.id),
              token,
            );
            if (done === 0) return; // the lease ended and another process has them
            for (const p of planned) {
              if (p.move) await moveSubscription(tx, p.move.subscriptionId, p.move.identityId);
              if (
                await enqueueWebhookEvent(tx, {
                  organizationId: p.organizationId,
                  type: 'identity.changed',
                  data: p.data,
                })
              ) {
                enqueued++;
              }
            }
          });
        } catch (error) {
          // Left claimed: tried again once the lease ends.
          logger.warn(
            { identityChanges: changes.length, code: (error as { code?: unknown })?.code },
            'change events failed',
          );
        }
      }
      if (claimed.length < NOTIFY_BATCH || stopping()) break;
    }
    if (enqueued > 0) deps.kick();
    return enqueued;
  }

  const job = periodicJob({ name: 'change events', run: round, logger });
  return {
    runOnce: () => job.runOnce(),
    start: () => job.start(NOTIFY_POLL_MS),
    stop: () => job.stop(),
  };
}
