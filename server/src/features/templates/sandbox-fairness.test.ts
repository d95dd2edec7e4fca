/**
 * Issue 28, finding 4: one owner's flood of templated calls must not starve another's, and past its queue bound an
 * owner is refused with 429 and Retry-After. Order is read from the sandbox's dispatch events, never from durations:
 * every job below is queued in one turn of the event loop, before any process has started, so the order in which
 * they are dispatched is the sandbox's choice alone.
 */
import { describe, expect, it } from 'vitest';
import { TooManyRequests } from '../../http/errors';
import { compileTemplate, fullAllowance, TEMPLATE_LIMITS } from './evaluate';
import { createTemplateSandbox, SANDBOX_MESSAGES, type TemplateSandbox } from './sandbox';
import { watchSandbox } from './test-sandbox-events';

const { events } = watchSandbox();

const ada = { id: 7, firstName: 'Ada' };
/** Some milliseconds a record: B's calls are slower than A's, as an attacker's would be. */
const SLOW = '{ "n": $count([1..5000][$ % 7 = 0]) }';
const QUICK = '{ "who": firstName }';
const A = 'organization:1';
const B = 'organization:2';

const apply = (sandbox: TemplateSandbox, expression: string, owner: string, records = [ada]) =>
  compileTemplate(expression, sandbox).applyAll(records, fullAllowance(), { owner });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );
/** A new sandbox and its number in the events (its first run spawns its processes at once). */
function sandboxOf(options: Parameters<typeof createTemplateSandbox>[0]) {
  const sandbox = createTemplateSandbox(options);
  const from = events.length;
  return { sandbox, id: () => events.slice(from).find((e) => e.event === 'spawn')!.sandbox };
}

describe('template sandbox fairness', () => {
  it("dispatches A's one job before most of B's queued flood", async () => {
    const { sandbox: own, id } = sandboxOf({ size: 2 });
    try {
      const flood = Array.from({ length: 12 }, () => apply(own, SLOW, B));
      // A's job is told apart by its two records, so the order shows whatever the sandbox tells of owners.
      const mine = apply(own, QUICK, A, [ada, ada]);
      expect(await mine).toEqual([{ who: 'Ada' }, { who: 'Ada' }]);
      // How B's jobs end (a loaded machine may take one past the time limit) is not the point: their order is.
      await Promise.allSettled(flood);
      const order = events
        .filter((e) => e.event === 'dispatch' && e.sandbox === id())
        .map((e) => (e as unknown as { records: number }).records);
      expect(order).toHaveLength(13);
      // First come first served would dispatch it last, 13th; fairly it goes once B holds its share (one of two).
      expect(order.indexOf(2)).toBeLessThanOrEqual(2);
    } finally {
      await own.close();
    }
  });

  it('refuses an owner past its queue bound with 429 and Retry-After while another owner is served', async () => {
    const own = createTemplateSandbox({ size: 1, queuePerOwner: 3 });
    try {
      const admitted = Array.from({ length: 3 }, () => apply(own, QUICK, B));
      const refused = refusal(apply(own, QUICK, B));
      const theirs = apply(own, QUICK, A);
      const error = await refused;
      expect(error).toBeInstanceOf(TooManyRequests);
      const { status, headers, message } = error as TooManyRequests;
      const seconds = Number(headers?.['retry-after']);
      expect(status).toBe(429);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(message).toBe(SANDBOX_MESSAGES.busy(seconds));
      expect(await theirs).toEqual([{ who: 'Ada' }]);
      for (const result of await Promise.all(admitted)) expect(result).toEqual([{ who: 'Ada' }]);
      expect(events.some((e) => e.event === 'refuse' && (e as { owner?: string }).owner === B)).toBe(true);
      // Once its queue has room again, B is served.
      expect(await apply(own, QUICK, B)).toEqual([{ who: 'Ada' }]);
    } finally {
      await own.close();
    }
  });

  it('refuses a call that found no one alike, and never the later batch of an admitted call', async () => {
    const own = createTemplateSandbox({ size: 1, queuePerOwner: 1 });
    try {
      const first = apply(own, QUICK, B);
      // No records to send, yet refused like any other call of B's: a refusal cannot tell whether anyone was found.
      expect(await refusal(apply(own, QUICK, B, []))).toBeInstanceOf(TooManyRequests);
      const later = own.run({ ...job(), owner: B, admitted: true });
      expect(await refusal(own.run({ ...job(), owner: B }))).toBeInstanceOf(TooManyRequests);
      expect((await later).outputs).toEqual([{ who: 'Ada' }]);
      expect(await first).toEqual([{ who: 'Ada' }]);
    } finally {
      await own.close();
    }
  });
});

/** One record of QUICK, with the limits a call's first batch has. */
function job() {
  const { timeoutMs, maxDepth, maxIdentityBytes, maxReplyBytes, requestBudgetMs } = TEMPLATE_LIMITS;
  const limits = { timeoutMs, maxDepth, maxIdentityBytes, maxReplyBytes, requestBudgetMs };
  return {
    expression: QUICK,
    records: [ada],
    limits: { ...limits, msLeft: requestBudgetMs, bytesLeft: maxReplyBytes },
  };
}
