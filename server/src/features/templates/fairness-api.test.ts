/**
 * Issue 28, finding 4, through the lookup API: organization B takes every sandbox process with long calls and queues
 * its bound of quick ones; its next call is refused with 429 and Retry-After, and organization A's one lookup is
 * served, dispatched before B's queued calls, and its next call starts at once. Order is read from the sandbox's events, never from durations. The one
 * assumption, checked as it goes: B's long calls (250 records of some 10-30 ms each) outlast the lookups of its 64
 * quick ones (0.3-3.3 s here, the latter at a load average of 26 on 2 cores).
 */
import diagnostics from 'node:diagnostics_channel';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';
import { machineSandboxSize } from './pool-size';
import { createTemplate } from './repo';
import { SANDBOX_CHANNEL, SANDBOX_FAIRNESS, SANDBOX_MESSAGES } from './sandbox';
import { watchSandbox } from './test-sandbox-events';

interface Customer {
  organizationId: number;
  cookie: string;
  owner: string;
}
let t: TestApp;
let a: Customer;
let b: Customer;
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  const customer = async () => {
    const member = await makeCustomer(t.database);
    const organizationId = member.organizationId!;
    return { organizationId, cookie: await signIn(t.app, member.email), owner: `organization:${organizationId}` };
  };
  a = await customer();
  b = await customer();
  await load(t.database, p);
});
afterAll(() => t.app.close());

const { events } = watchSandbox();
interface Seen {
  event: string;
  owner?: string;
  queued?: number;
  records?: number;
}
/** Resolves with the `count`th event matching from now on. */
function seen(match: (e: Seen) => boolean, count = 1): Promise<Seen> {
  return new Promise((resolve) => {
    let left = count;
    const check = (message: unknown) => {
      if (!match(message as Seen) || --left > 0) return;
      diagnostics.unsubscribe(SANDBOX_CHANNEL.name, check);
      resolve(message as Seen);
    };
    diagnostics.subscribe(SANDBOX_CHANNEL.name, check);
  });
}
const BOUND = SANDBOX_FAIRNESS.queuePerOwner;

const template = async (who: Customer, expression: string) =>
  (
    await createTemplate(t.database, {
      name: 'Mine',
      organizationId: who.organizationId,
      createdBy: null,
      expression,
      publish: true,
    })
  ).id;
const get = (who: Customer, id: number) =>
  t.app.inject({
    method: 'GET',
    url: `/v2/identities/byId?id=${p.id}&template=${id}`,
    headers: { ...CONSOLE_HEADERS, cookie: who.cookie },
  });
const post = (who: Customer, id: number, inputs: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/identities/byId',
    headers: { ...CONSOLE_HEADERS, cookie: who.cookie },
    payload: JSON.stringify({ inputs, template: id }),
  });

describe('template sandbox fairness, through the lookup API', () => {
  it("refuses B past its queue bound with 429 and Retry-After, and dispatches A's lookup before B's queue", async () => {
    const size = machineSandboxSize(1);
    const long = await template(b, '{ "n": $count([1..5000][$ % 7 = 0]) }');
    const quick = await template(b, '{ "id": id }');
    const mine = await template(a, '{ "who": firstName }');

    // B holds every process: one call of 250 records each.
    const holding = seen((e) => e.event === 'dispatch' && e.owner === b.owner, size);
    const longCalls = Array.from({ length: size }, () => post(b, long, Array(250).fill(String(p.id))));
    await holding;
    // B's quick calls, one after another as each reaches the sandbox, until one is refused.
    const waiting: Promise<LightMyRequestResponse>[] = [];
    let refused: LightMyRequestResponse | null = null;
    while (!refused) {
      expect(waiting.length, "B's long calls ended before its queue filled").toBeLessThan(2 * BOUND);
      const reached = seen((e) => (e.event === 'queue' || e.event === 'refuse') && e.owner === b.owner);
      const call = get(b, quick);
      if ((await reached).event === 'refuse') refused = await call;
      else waiting.push(call);
    }
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toEqual({
      error: SANDBOX_MESSAGES.busy(seconds),
      code: 'rate_limited',
      requestId: expect.any(String),
    });

    const from = events.length;
    const served = await get(a, mine);
    expect(served.statusCode).toBe(200);
    expect(served.json().identities[0].who).toBe(p.firstName);
    // A's next call finds the process B is kept from while A is about: dispatched as it is queued.
    const again = events.length;
    expect((await get(a, mine)).statusCode).toBe(200);
    const mineAgain = events.slice(again).map((e) => e as unknown as Seen);
    const queuedAgain = mineAgain.findIndex((e) => e.event === 'queue' && e.owner === a.owner);
    expect(mineAgain[queuedAgain + 1]).toMatchObject({ event: 'dispatch', owner: a.owner });

    for (const res of await Promise.all(waiting)) expect(res.statusCode).toBe(200);
    await Promise.all(longCalls);

    // Once A's call waits, the next process to free is A's: first come first served would run B's queue first.
    const after = events.slice(from).map((e) => e as unknown as Seen);
    const queued = after.findIndex((e) => e.event === 'queue' && e.owner === a.owner);
    const dispatched = after.slice(queued).filter((e) => e.event === 'dispatch');
    expect(dispatched[0]).toMatchObject({ owner: a.owner, records: 1 });
    expect(dispatched.filter((e) => e.owner === b.owner).length).toBeGreaterThan(BOUND / 2);
  });
});
