/**
 * /v2/usage (issue 16): series, totals and calls equal sums over the usage rows for every interval, zone and
 * filter; each caller sees only their scope; bad queries answer 400 naming the parameter.
 */
import { CALL_METRICS, emptyMetrics, USAGE_INTERVALS, USAGE_METRICS } from '@tessera/common/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, type Member, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { type UsageEvent, writeUsage } from '../usage/metering';

let t: TestApp;
const api = consoleClient(() => t.app);
let orgA: number;
let orgB: number;
let user1: Member;
let user2: Member;
let admin: Member;
let outsider: Member;
const cookies: Record<string, string> = {};
let key1: string;
let outsiderKey: string;

interface Seeded {
  at: Date;
  event: UsageEvent;
}
const seeded: Seeded[] = [];

// A deterministic spread of calls over five weeks around the 2026 end of US daylight time (1 November).
function* random(seed: number) {
  let s = seed;
  for (;;) {
    s = (s * 1103515245 + 12345) % 2147483648;
    yield s / 2147483648;
  }
}

const FROM = '2026-10-25T13:17:05.123Z';
const TO = '2026-11-20T08:42:00.500Z';
const inRange = (s: Seeded) => s.at >= new Date(FROM) && s.at < new Date(TO);

beforeAll(async () => {
  t = await buildTestApp();
  orgA = (await makeOrganization(t.database)).id;
  orgB = (await makeOrganization(t.database)).id;
  user1 = await makeUser(t.database, 'user', orgA);
  user2 = await makeUser(t.database, 'user', orgA);
  admin = await makeUser(t.database, 'admin', orgA);
  outsider = await makeUser(t.database, 'user', orgB);
  const superUser = await makeUser(t.database, 'super', orgB);
  for (const [name, m] of Object.entries({ user1, user2, admin, outsider, superUser })) {
    cookies[name] = await signIn(t.app, m.email);
  }
  const made = await api.post('/v2/keys', cookies.user1!, { name: 'reports' });
  key1 = Object.keys(made.json().keys)[0]!;
  outsiderKey = Object.keys((await api.post('/v2/keys', cookies.outsider!, { name: 'theirs' })).json().keys)[0]!;

  const rand = random(42);
  const next = () => rand.next().value as number;
  const start = Date.parse('2026-10-20T00:00:00Z');
  const span = Date.parse('2026-11-24T00:00:00Z') - start;
  const who = [
    { userId: user1.id, organizationId: orgA, keyId: key1 },
    { userId: user1.id, organizationId: orgA, keyId: null },
    { userId: user2.id, organizationId: orgA, keyId: null },
    { userId: admin.id, organizationId: orgA, keyId: null },
    { userId: outsider.id, organizationId: orgB, keyId: outsiderKey },
  ];
  const times = Array.from({ length: 400 }, () => new Date(start + Math.floor(next() * span)));
  // Calls in the part hours at both ends of the range, and on the night the clocks go back in New York.
  times.push(
    new Date('2026-10-25T13:17:05.123Z'),
    new Date('2026-10-25T13:59:59.999Z'),
    new Date('2026-11-20T08:42:00.499Z'),
    new Date('2026-11-20T08:42:00.500Z'),
    new Date('2026-11-02T04:30:00Z'),
    new Date('2026-11-01T05:30:00Z'),
    new Date('2026-11-01T06:30:00Z'),
  );
  let n = 0;
  for (const at of times) {
    const metrics = emptyMetrics();
    for (const m of CALL_METRICS) metrics[m] = Math.floor(next() * 5);
    const event: UsageEvent = {
      requestId: `report-${process.pid}-${Date.now()}-${n++}`,
      ...who[Math.floor(next() * who.length)]!,
      method: ['GET', 'POST', 'PUT'][Math.floor(next() * 3)]!,
      path: ['/byEmail', '/byPii', '/byPhone'][Math.floor(next() * 3)]!,
      status: 200,
      metrics,
      costMicros: Math.floor(next() * 5000),
    };
    await writeUsage(t.database, [event], at);
    seeded.push({ at, event });
  }
});
afterAll(() => t.app.close());

const value = (s: Seeded, metric: string): number =>
  metric === 'requests'
    ? 1
    : metric === 'cost'
      ? s.event.costMicros / 1e6
      : s.event.metrics[metric as keyof UsageEvent['metrics']];

function expectedTotals(filter: (s: Seeded) => boolean) {
  const rows = seeded.filter((s) => inRange(s) && filter(s));
  return Object.fromEntries(USAGE_METRICS.map((m) => [m, rows.reduce((sum, s) => sum + value(s, m), 0)]));
}

function expectTotalsClose(actual: Record<string, number>, expected: Record<string, number>) {
  for (const m of USAGE_METRICS) expect(actual[m], m).toBeCloseTo(expected[m]!, 6);
}

const q = (params: Record<string, string | number>) =>
  new URLSearchParams(
    Object.entries({ from: FROM, to: TO, ...params }).map(([k, v]): [string, string] => [k, String(v)]),
  );

describe('usage totals', () => {
  // Parameters and filters are functions: the ids exist only once beforeAll has run.
  const cases: [string, string, () => Record<string, string | number>, (e: UsageEvent) => boolean][] = [
    ['a user: their own calls', 'user1', () => ({}), (e) => e.userId === user1.id],
    ['a user, one key', 'user1', () => ({ keyId: key1 }), (e) => e.keyId === key1],
    ['an administrator: the organization', 'admin', () => ({}), (e) => e.organizationId === orgA],
    ['an administrator, one member', 'admin', () => ({ userId: user2.id }), (e) => e.userId === user2.id],
    [
      'POST on /byPii',
      'admin',
      () => ({ method: 'POST', path: '/byPii' }),
      (e) => e.organizationId === orgA && e.method === 'POST' && e.path === '/byPii',
    ],
    ['super, any organization', 'superUser', () => ({ organizationId: orgB }), (e) => e.organizationId === orgB],
  ];

  it.each(cases)('%s: every metric equals the sum over the rows', async (_, who, params, filter) => {
    const res = await api.get(`/v2/usage/totals?${q(params())}`, cookies[who]!);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().usageTotals;
    expect(body).toMatchObject({ from: FROM, to: TO, tz: 'UTC' });
    const expected = expectedTotals((s) => filter(s.event));
    expect(expected.requests).toBeGreaterThan(0);
    expectTotalsClose(body.totals, expected);
  });
});

describe('usage series', () => {
  const zones = ['UTC', 'America/New_York', 'Asia/Kolkata'];
  const reference = async (interval: string, tz: string, metric: string) => {
    const column =
      metric === 'requests' ? '1' : metric === 'cost' ? 'cost' : metric.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const rows = await t.database.query<{ at: Date | string; v: string | number }>(
      `select date_trunc($1::text, at, $2::text) as at, sum(${column})::float8 as v from usage
       where organization_id = $3::int and at >= $4::timestamptz and at < $5::timestamptz group by 1`,
      [interval, tz, orgA, FROM, TO],
    );
    return new Map(rows.map((r) => [new Date(r.at).toISOString(), Number(r.v)]));
  };

  for (const tz of zones) {
    for (const interval of USAGE_INTERVALS) {
      it(`${interval} buckets in ${tz} equal the rows' sums, every bucket present`, async () => {
        for (const metric of ['requests', 'identities', 'cost']) {
          const res = await api.get(`/v2/usage/series?${q({ interval, tz, metric })}`, cookies.admin!);
          expect(res.statusCode, res.body).toBe(200);
          const series = res.json().usageSeries;
          expect(series).toMatchObject({ metric, interval, tz, from: FROM, to: TO });
          const expected = await reference(interval, tz, metric);
          const got = new Map<string, number>(series.points.map((p: { at: string; value: number }) => [p.at, p.value]));
          for (const [at, v] of expected) expect(got.get(at), `${metric} at ${at}`).toBeCloseTo(v, 6);
          for (const [at, v] of got) if (!expected.has(at)) expect(v, `${metric} at ${at}`).toBe(0);
          // Buckets are in order, with no gaps, from the one holding `from` to the one holding `to`.
          const ats = series.points.map((p: { at: string }) => Date.parse(p.at));
          expect([...ats].sort((a, b) => a - b)).toEqual(ats);
          expect(ats[0]).toBeLessThanOrEqual(Date.parse(FROM));
          expect(ats.at(-1)).toBeLessThan(Date.parse(TO));
          const total = series.points.reduce((s: number, p: { value: number }) => s + p.value, 0);
          expect(total).toBeCloseTo(expectedTotals((s) => s.event.organizationId === orgA)[metric]!, 6);
        }
      });
    }
  }

  it("counts a day across the end of daylight time as the zone's one 25-hour day", async () => {
    const res = await api.get(
      `/v2/usage/series?${q({ interval: 'day', tz: 'America/New_York', from: '2026-10-31T04:00:00Z', to: '2026-11-03T05:00:00Z' })}`,
      cookies.superUser!,
    );
    const points = res.json().usageSeries.points as { at: string; value: number }[];
    expect(points.map((p) => p.at)).toEqual([
      '2026-10-31T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
    // 23:30 on 1 November in New York (04:30 UTC on the 2nd) counts on the 1st.
    const nov1 = seeded.filter(
      (s) => s.at >= new Date('2026-11-01T04:00:00Z') && s.at < new Date('2026-11-02T05:00:00Z'),
    );
    expect(nov1.some((s) => s.at.toISOString() === '2026-11-02T04:30:00.000Z')).toBe(true);
    expect(points[1]!.value).toBe(nov1.length);
  });

  it('defaults to the month up to now, by day, of requests, in UTC', async () => {
    const res = await api.get('/v2/usage/series', cookies.user1!);
    expect(res.statusCode, res.body).toBe(200);
    const series = res.json().usageSeries;
    expect(series).toMatchObject({ metric: 'requests', interval: 'day', tz: 'UTC' });
    const from = new Date(series.from);
    from.setUTCMonth(from.getUTCMonth() + 1);
    expect(from.toISOString()).toBe(series.to);
    expect(series.points.length).toBeGreaterThanOrEqual(28);
  });
});

describe('usage calls', () => {
  it('pages through every call of the range exactly once, newest first', async () => {
    const seen: { id: number; at: string; userId: number }[] = [];
    let after: string | null = null;
    do {
      const params: Record<string, string | number> = { pageSize: 10, ...(after ? { after } : {}) };
      const res = await api.get(`/v2/usage/calls?${q(params)}`, cookies.admin!);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json().usageCalls;
      expect(body.calls.length).toBeLessThanOrEqual(10);
      seen.push(...body.calls);
      after = body.next;
    } while (after);
    const expected = seeded.filter((s) => inRange(s) && s.event.organizationId === orgA);
    expect(seen.length).toBe(expected.length);
    expect(new Set(seen.map((c) => c.id)).size).toBe(seen.length);
    const ats = seen.map((c) => Date.parse(c.at));
    expect([...ats].sort((a, b) => b - a)).toEqual(ats);
    expect(seen.every((c) => [user1.id, user2.id, admin.id].includes(c.userId))).toBe(true);
  });

  it('sorts by a metric either way, ties broken by id, and pages the same', async () => {
    for (const sort of ['-cost', 'identities']) {
      const all: { id: number; cost: number; identities: number }[] = [];
      let after: string | null = null;
      do {
        const res = await api.get(
          `/v2/usage/calls?${q({ sort, pageSize: 25, ...(after ? { after } : {}) })}`,
          cookies.admin!,
        );
        expect(res.statusCode, res.body).toBe(200);
        all.push(...res.json().usageCalls.calls);
        after = res.json().usageCalls.next;
      } while (after);
      const key = sort.replace('-', '') as 'cost' | 'identities';
      const sorted = [...all].sort((a, b) => (a[key] - b[key]) * (sort.startsWith('-') ? -1 : 1) || 0);
      expect(all.map((c) => c[key])).toEqual(sorted.map((c) => c[key]));
      expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    }
  });

  it('gives a call every metric and its cost', async () => {
    const res = await api.get(`/v2/usage/calls?${q({ userId: user2.id, pageSize: 10 })}`, cookies.admin!);
    const call = res.json().usageCalls.calls[0];
    const match = seeded.find((s) => new Date(s.at).toISOString() === call.at && s.event.userId === user2.id)!;
    expect(call).toMatchObject({
      userId: user2.id,
      organizationId: orgA,
      method: match.event.method,
      path: match.event.path,
      status: 200,
      cost: match.event.costMicros / 1e6,
      ...match.event.metrics,
    });
  });

  it('exports the calls as a CSV attachment, every row once', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/usage/calls.csv?${q({})}`,
      headers: { cookie: cookies.admin! },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="usage-2026-10-25-to-2026-11-20.csv"');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      [
        ...['at', 'userId', 'organizationId', 'keyId', 'method', 'path', 'status', ...CALL_METRICS, 'cost'],
        ...['userName', 'organizationName', 'keyName', 'call'],
      ].join(','),
    );
    expect(lines.length - 1).toBe(seeded.filter((s) => inRange(s) && s.event.organizationId === orgA).length);
  });

  it('answers 400 for a cursor it did not give', async () => {
    for (const after of [
      'nonsense',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('["x",1]').toString('base64url'),
      Buffer.from('["-at","x",1]').toString('base64url'),
    ]) {
      const res = await api.get(`/v2/usage/calls?${q({ after })}`, cookies.admin!);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'querystring.after', message: expect.stringContaining('cursor') }]);
    }
  });

  it('answers 400, never 500, for a cursor of another sort or a value its column cannot hold', async () => {
    // A real cursor of the default sort, sent with another sort (the console's Back button could do this).
    const first = await api.get(`/v2/usage/calls?${q({ organizationId: orgA, pageSize: 10 })}`, cookies.admin!);
    const next = first.json().usageCalls.next as string;
    expect(next).toEqual(expect.any(String));
    const cursor = (value: unknown, sort = 'identities') =>
      Buffer.from(JSON.stringify([sort, value, 1])).toString('base64url');
    for (const [sort, after] of [
      ['-identities', next],
      ['identities', cursor(1.5)],
      ['identities', cursor(1e20)],
      ['identities', cursor(3e9)],
      ['cost', cursor(1e300, 'cost')],
      ['-at', cursor(1.5, '-at')],
    ]) {
      const res = await api.get(
        `/v2/usage/calls?${q({ organizationId: orgA, sort: sort!, after: after! })}`,
        cookies.admin!,
      );
      expect(res.statusCode, `${sort} ${after}`).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'querystring.after', message: expect.stringContaining('cursor') }]);
    }
    // The same cursor with its own sort is served.
    expect(
      (await api.get(`/v2/usage/calls?${q({ organizationId: orgA, pageSize: 10, after: next })}`, cookies.admin!))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a page size or cursor on the export, which walks every page itself', async () => {
    const extras: Record<string, string | number>[] = [{ pageSize: 10 }, { after: 'x' }];
    for (const extra of extras) {
      const res = await api.get(`/v2/usage/calls.csv?${q(extra)}`, cookies.admin!);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
    }
  });
});

describe('usage scope', () => {
  it('answers 401 signed out', async () => {
    for (const path of ['series', 'totals', 'calls', 'calls.csv']) {
      expect((await t.app.inject({ method: 'GET', url: `/v2/usage/${path}` })).statusCode).toBe(401);
    }
  });

  it('answers 403 naming the filter outside the caller', async () => {
    const refused: [string, Record<string, string | number>, string][] = [
      ['user1', { userId: user2.id }, 'users you manage'],
      ['user1', { organizationId: orgB }, 'your own organization'],
      ['user1', { keyId: outsiderKey }, 'keys you manage'],
      ['user2', { keyId: key1 }, 'keys you manage'],
      ['admin', { userId: outsider.id }, 'users you manage'],
      ['admin', { userId: 99_999_999 }, 'users you manage'],
      ['admin', { organizationId: orgB }, 'your own organization'],
      ['admin', { keyId: outsiderKey }, 'keys you manage'],
      ['admin', { keyId: 'nosuchkey' }, 'keys you manage'],
    ];
    for (const [who, params, message] of refused) {
      for (const path of ['series', 'totals', 'calls', 'calls.csv']) {
        const res = await api.get(`/v2/usage/${path}?${q(params)}`, cookies[who]!);
        expect(res.statusCode, `${who} ${path} ${JSON.stringify(params)}`).toBe(403);
        expect(res.json().error).toContain(message);
      }
    }
  });

  it('lets an administrator read a member and a member read their own key', async () => {
    expect((await api.get(`/v2/usage/totals?${q({ userId: user1.id })}`, cookies.admin!)).statusCode).toBe(200);
    expect((await api.get(`/v2/usage/totals?${q({ keyId: key1 })}`, cookies.admin!)).statusCode).toBe(200);
    expect((await api.get(`/v2/usage/totals?${q({ userId: user1.id })}`, cookies.user1!)).statusCode).toBe(200);
  });

  it("lets super read another organization's calls", async () => {
    const res = await api.get(`/v2/usage/calls?${q({ organizationId: orgA, pageSize: 10 })}`, cookies.superUser!);
    expect(res.statusCode).toBe(200);
    expect(res.json().usageCalls.calls.every((c: { organizationId: number }) => c.organizationId === orgA)).toBe(true);
  });
});

describe('usage query errors', () => {
  const bad: [Record<string, string | number>, string, string][] = [
    [{ interval: 'year' }, 'querystring.interval', ''],
    [{ metric: 'hats' }, 'querystring.metric', ''],
    [{ tz: 'Mars/Olympus' }, 'querystring.tz', 'Unknown time zone "Mars/Olympus"'],
    [{ from: 'yesterday' }, 'querystring.from', ''],
    [{ to: '2026-10-01T00:00:00Z' }, 'querystring.to', '`to` must be after `from`.'],
    [{ from: '2020-01-01T00:00:00Z' }, 'querystring.from', 'at most 1100 days'],
    [{ interval: 'hour', from: '2025-01-01T00:00:00Z' }, 'querystring.interval', 'choose a longer interval'],
    [{ pageSize: 7 }, 'querystring.pageSize', 'Page size is one of 10, 25, 100, 250, 1000.'],
    [{ sort: 'colour' }, 'querystring.sort', 'Sort by one of at,'],
    [{ method: 'PATCH' }, 'querystring.method', ''],
    [{ path: '/byShoeSize' }, 'querystring.path', ''],
    [{ userId: 'me' }, 'querystring.userId', ''],
    [{ userId: 99_999_999_999 }, 'querystring.userId', 'There is no such id.'],
    [{ organizationId: 3_000_000_000 }, 'querystring.organizationId', 'There is no such id.'],
    [{ tz: 'US/Pacific-New' }, 'querystring.tz', 'Unknown time zone "US/Pacific-New"'],
    [
      { from: '0000-01-01T00:00:00Z', to: '0000-01-02T00:00:00Z' },
      'querystring.from',
      'between the years 1970 and 9999',
    ],
    [{ shoe: 1 }, 'querystring', ''],
  ];
  it.each(bad)('%j answers 400 naming %s', async (params, path, message) => {
    const res = await api.get(`/v2/usage/series?${q(params)}`, cookies.user1!);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    const field = res.json().fields.find((f: { path: string }) => f.path.startsWith(path));
    expect(field, res.body).toBeDefined();
    expect(field.message).toContain(message);
  });
});
