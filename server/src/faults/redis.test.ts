/**
 * The fault suite, Redis side (issue 28 finding 6, decision 0050): two server processes' worth of the real app,
 * counters, rate windows and fan-out on a redis-server of the test's own, which is frozen, then killed mid-test and
 * started again. While it is away every throttled route answers as it would without Redis (never 500), a
 * rate-limited key's lookups answer 200 or 429 at the in-process share, and nothing waits on Redis: each phase's
 * calls all complete before one deadline. Once it is back, the two processes share their limits again.
 */
import { randomUUID } from 'node:crypto';
import { emailKey } from '@tessera/common/validation';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRedis, testRedis } from '../features/throttle/test-redis';
import { redisFanout } from '../socket/fanout';
import { consoleClient } from '../test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  type Member,
  makeCustomer,
  PASSWORD,
  signIn,
  type TestApp,
} from '../test/harness';
import { sleep, within } from './timing';

/** For every call of a phase together; with nothing waiting on Redis they take well under a second. */
const DEADLINE_MS = 10_000;
/** Longest the suite waits for both processes to count in Redis again once it is back. */
const RECOVERY_BOUND_MS = 30_000;
const RATE = 3;

/** Never a 500: an answer below 500, or a 503 that says when to retry. */
const answered = (res: LightMyRequestResponse) =>
  res.statusCode < 500 || (res.statusCode === 503 && Number(res.headers['retry-after']) > 0);

describe('a Redis that goes away', () => {
  const namespace = `test-outage-${randomUUID()}`;
  let redis: TestRedis;
  let a: TestApp;
  let b: TestApp;
  let customer: Member;
  let cookie: string;

  beforeAll(async () => {
    redis = await testRedis();
    const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: namespace };
    const build = async () => buildTestApp({ env, fanout: await redisFanout({ url: redis.url, namespace }) });
    [a, b] = await Promise.all([build(), build()]);
    customer = await makeCustomer(a.database);
    cookie = await signIn(a.app, customer.email);
  }, 60_000);

  afterAll(async () => {
    for (const t of [a, b]) {
      await t?.app.close();
      await t?.fanout.close();
    }
    await redis?.kill();
  });

  async function keyWith(rateLimit: number) {
    const res = await consoleClient(() => a.app).post('/v2/keys', cookie, { name: 'limited', rateLimit });
    const key = Object.values(res.json().keys)[0] as { id: string; secret: string };
    return { id: key.id, authorization: `Bearer ${key.id}${key.secret}` };
  }
  const lookup = (t: TestApp, authorization: string) =>
    t.app.inject({ method: 'GET', url: '/v2/identities/byId?id=1', headers: { authorization } });
  const post = (t: TestApp, url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { ...CONSOLE_HEADERS, ...headers }, payload });
  const signInAs = (t: TestApp, email: string, password = PASSWORD) => post(t, '/auth/login', { email, password });

  /** A key's calls alternating between the processes: shared windows refuse the third and fourth. */
  async function keyAcrossProcesses() {
    const { authorization } = await keyWith(2);
    const statuses: number[] = [];
    for (const t of [a, b, a, b]) statuses.push((await lookup(t, authorization)).statusCode);
    return statuses;
  }
  /** Reset mails for one address alternating between the processes: shared counters refuse the sixth. */
  async function mailAcrossProcesses() {
    const email = `shared-${randomUUID()}@tessera.test`;
    const statuses: number[] = [];
    for (const t of [a, b, a, b, a, b]) statuses.push((await post(t, '/auth/forgot', { email })).statusCode);
    return statuses;
  }

  it('shares the limits of both processes through Redis', async () => {
    expect(await keyAcrossProcesses()).toEqual([200, 200, 429, 429]);
    expect(await mailAcrossProcesses()).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers sign-ins and lookups while Redis is frozen, none waiting on it', async () => {
    const { authorization } = await keyWith(100);
    redis.freeze();
    try {
      const [signedIn, ...lookups] = await within(
        Promise.all([signInAs(b, customer.email), ...[a, b, a, b].map((t) => lookup(t, authorization))]),
        DEADLINE_MS,
        'every call while Redis is frozen',
      );
      expect(signedIn!.statusCode).toBe(200);
      expect(lookups.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    } finally {
      redis.resume();
    }
  });

  it('never answers 500 while Redis is down, and holds a key to its in-process share', async () => {
    const { authorization } = await keyWith(RATE);
    const stranger = `stranger-${randomUUID()}@tessera.test`;
    await redis.kill();
    const calls: [string, () => Promise<LightMyRequestResponse>][] = [
      ['sign-in', () => signInAs(a, customer.email)],
      ['sign-in on the other process', () => signInAs(b, customer.email)],
      ['a wrong password', () => signInAs(a, customer.email, 'not-the-password')],
      ['pre-approval', () => post(a, '/auth/preapprove', { email: stranger })],
      ['sign-up', () => post(a, '/auth/signup', { name: 'Stranger', email: stranger })],
      ['forgot', () => post(b, '/auth/forgot', { email: stranger })],
      ['contact', () => post(a, '/v2/contact', { name: 'Stranger', email: stranger, message: 'Hello there.' })],
      ['opt-out', () => post(b, '/v2/opt-out', { email: stranger })],
      ['step-up', () => post(a, '/auth/confirm', { password: PASSWORD }, { cookie })],
      // Every chat call pushes through the fan-out: a push that cannot reach Redis never fails its request.
      ['a support chat', () => post(a, '/v2/chat/conversations', {}, { cookie })],
    ];
    const { answers, lookups } = await within(
      (async () => {
        const answers: [string, LightMyRequestResponse][] = [];
        for (const [what, call] of calls) answers.push([what, await call()]);
        const lookups: number[] = [];
        for (let i = 0; i < 8; i++) lookups.push((await lookup(a, authorization)).statusCode);
        return { answers, lookups };
      })(),
      DEADLINE_MS,
      'every call while Redis is down',
    );
    for (const [what, res] of answers) expect(answered(res), `${what}: ${res.statusCode} ${res.body}`).toBe(true);
    expect(answers.slice(0, 3).map(([, res]) => res.statusCode)).toEqual([200, 200, 401]);
    // One process here, so its share is the whole limit: counted in the process, not waved through.
    expect(lookups).toEqual([...Array(RATE).fill(200), ...Array(8 - RATE).fill(429)]);
  });

  it('uses the shared limits again once Redis is back', async () => {
    await redis.start();
    const probe = new Redis(redis.url);
    try {
      // Each process counts in Redis again once its pause is over: wait until both have written there.
      for (const [label, t] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const { id, authorization } = await keyWith(1000);
        const email = `probe-${label}-${randomUUID()}@tessera.test`;
        let back = false;
        const until = Date.now() + RECOVERY_BOUND_MS;
        while (!back && Date.now() < until) {
          await lookup(t, authorization);
          await signInAs(t, email, 'not-the-password');
          const rates = await probe.keys(`tessera:${namespace}:rate:key:${id}:*`);
          const failures = await probe.exists(`tessera:${namespace}:throttle:login:account:${emailKey(email)}`);
          back = rates.length > 0 && failures === 1;
          if (!back) await sleep(200);
        }
        expect(back, `process ${label} counting in Redis again within ${RECOVERY_BOUND_MS} ms`).toBe(true);
      }
    } finally {
      probe.disconnect();
    }
    expect(await keyAcrossProcesses()).toEqual([200, 200, 429, 429]);
    expect(await mailAcrossProcesses()).toEqual([200, 200, 200, 200, 200, 429]);
  }, 60_000);
});
