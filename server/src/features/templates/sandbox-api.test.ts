/**
 * Hostile templates through the real lookup API (issue 12): a backtracking regular expression, a heap bomb, huge
 * output and function values each answer 422 naming the limit, the server answers others meanwhile, and the sandbox
 * recovers. Normal templates give what JSONata gives in process; Full never reaches the sandbox.
 */
import jsonata from 'jsonata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, CONSOLE_HEADERS, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';
import { splitCsv } from '../people/import/csv-fields';
import { TEMPLATE_LIMITS } from './evaluate';
import { createTemplate } from './repo';
import { SANDBOX_MESSAGES } from './sandbox';
import { watchSandbox } from './test-sandbox-events';

let t: TestApp;
let cookie: string;
let organizationId: number;
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  const customer = await makeCustomer(t.database);
  organizationId = customer.organizationId!;
  cookie = await signIn(t.app, customer.email);
  await load(t.database, p);
});
afterAll(() => t.app.close());

const { events, nextEvent } = watchSandbox();
beforeEach(() => {
  events.length = 0;
});

const own = async (expression: string) =>
  (await createTemplate(t.database, { name: 'Mine', organizationId, createdBy: null, expression, publish: true })).id;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string, type = 'application/json') =>
  t.app.inject({ method, url, headers: { ...CONSOLE_HEADERS, 'content-type': type, cookie }, payload });
const byId = (template: number, query = '') =>
  call('GET', `/v2/identities/byId?id=${p.id}&template=${template}${query}`);
const failed = (id: number) => new RegExp(`^Template ${id} \\(Mine, version 1\\) failed: `);

/** The record as the Full template returns it, without the fields the API adds. */
async function fullRecord(): Promise<Record<string, unknown>> {
  const { score: _s, matchedOn: _m, ...rest } = (await byId(1)).json().identities[0];
  return rest;
}

const REGEX_BOMB = '$match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/)';

describe('template sandbox, through the lookup API', () => {
  it('stops a backtracking regular expression with 422 while the server answers others, then recovers', async () => {
    const bomb = await own(`{ "m": ${REGEX_BOMB} }`);
    const dispatched = nextEvent('dispatch');
    let settled = false;
    const pending = byId(bomb).finally(() => {
      settled = true;
    });
    await dispatched; // the bomb is in the sandbox now
    const health = await call('GET', '/healthz');
    expect(health.statusCode).toBe(200);
    const plain = await byId(1);
    expect(plain.statusCode).toBe(200);
    expect(settled).toBe(false);
    const res = await pending;
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(failed(bomb));
    expect(res.json().error).toContain(SANDBOX_MESSAGES.stopped);
    expect(events.some((e) => e.event === 'stop')).toBe(true);
    expect(t.logs.some((line) => line.includes('template sandbox: a process was ended'))).toBe(true);

    const next = await own('{ "who": firstName }');
    expect((await byId(next)).json().identities[0]).toEqual({ score: 100, matchedOn: ['id'], who: p.firstName });
  });

  it('stops the same in $replace, $split and $contains', async () => {
    const subject = '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"';
    const bombs = await Promise.all(
      [`$replace(${subject}, /(a+)+$/, "b")`, `$split(${subject}, /(a+)+$/)`, `$contains(${subject}, /(a+)+$/)`].map(
        (call) => own(`{ "x": ${call} }`),
      ),
    );
    for (const res of await Promise.all(bombs.map((id) => byId(id)))) {
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toContain(SANDBOX_MESSAGES.stopped);
    }
  });

  it('answers a template that overflows its heap with 422 naming the limit, then recovers', async () => {
    const bomb = await own('{ "n": $count([1..10000000]) }');
    const res = await byId(bomb);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(failed(bomb));
    expect(res.json().error).toContain(`${TEMPLATE_LIMITS.heapMb} MB of memory`);
    expect(events.some((e) => e.event === 'exit' && e.signal === 'SIGABRT')).toBe(true);
    expect((await byId(await own('{ "ok": true }'))).json().identities[0].ok).toBe(true);
  });

  it("caps one identity's output and a reply's, naming each limit", async () => {
    for (const width of [70_000, 100_000_000]) {
      const wide = await own(`{ "x": $pad("", ${width}, "x") }`);
      const res = await byId(wide);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toContain('larger than 64 KB, the limit per identity');
    }
    // 150 identities of 60 KB each: each fits, together they pass 8 MB.
    const big = await own('{ "x": $pad("", 60000, "x") }');
    const inputs = Array(150).fill(String(p.id));
    const res = await call('POST', '/v2/identities/byId', JSON.stringify({ inputs, template: big }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toContain('larger than 8 MB in all, the limit per reply');
    const fits = await call(
      'POST',
      '/v2/identities/byId',
      JSON.stringify({ inputs: inputs.slice(0, 20), template: big }),
    );
    expect(fits.statusCode).toBe(200);
  });

  it('answers function values with 422 in JSON and in CSV, GET, POST and PUT alike', async () => {
    for (const expression of ['{ "f": $string }', '{ "f": function($x) { $x } }', '{ "a": [1, { "r": /a/ }] }']) {
      const id = await own(expression);
      const replies = [
        await byId(id),
        await byId(id, '&format=csv'),
        await call(
          'POST',
          '/v2/identities/byId',
          JSON.stringify({ inputs: [String(p.id)], template: id, format: 'csv' }),
        ),
        await call('PUT', `/v2/identities/byId?template=${id}`, `id\r\n${p.id}\r\n`, 'text/csv'),
      ];
      for (const res of replies) {
        expect(res.statusCode, expression).toBe(422);
        expect(res.json().error, expression).toMatch(failed(id));
        // On a real record a failure is told by its class alone (issue 28, finding 1).
        expect(res.json().error, expression).toContain('it must produce an object for each identity, holding only');
      }
    }
  });

  it('gives what JSONata gives in process, in JSON and in CSV', async () => {
    const record = await fullRecord();
    const expression =
      '{ "who": firstName & " " & lastName, "emails": emails.address, "phones": phones.{ "n": number, "t": type }, "none": nothing, "list": [1, 2] }';
    const expected = JSON.parse(JSON.stringify(await jsonata(expression).evaluate(record)));
    const id = await own(expression);
    expect((await byId(id)).json().identities[0]).toEqual({ score: 100, matchedOn: ['id'], ...expected });
    for (const system of [2, 3, 4, 5]) {
      const [version] = await t.database.query<{ expression: string }>(
        'select expression from template_versions where template_id = $1 order by version desc limit 1',
        [system],
      );
      const fields = JSON.parse(JSON.stringify(await jsonata(version!.expression).evaluate(record)));
      expect((await byId(system)).json().identities[0], `template ${system}`).toEqual({
        score: 100,
        matchedOn: ['id'],
        ...fields,
      });
    }
    const [header, row] = (await byId(id, '&format=csv')).body.split('\r\n').map((line) => splitCsv(line)!);
    expect(header).toEqual(['input.id', 'score', 'matchedOn', 'who', 'emails', 'phones.n', 'phones.t', 'list']);
    expect(row).toEqual([
      String(p.id),
      '100',
      'id',
      expected.who,
      p.emails[0]!.address,
      p.phones[0]!.number,
      p.phones[0]!.type,
      '1;2',
    ]);
  });

  it('starts no process for the Full template, starts them on first use, and ends them with the app', async () => {
    const other = await buildTestApp({ database: t.database });
    const session = await signIn(other.app, (await makeCustomer(t.database)).email);
    const get = (template: number) =>
      other.app.inject({
        method: 'GET',
        url: `/v2/identities/byId?id=${p.id}&template=${template}`,
        headers: { ...CONSOLE_HEADERS, cookie: session },
      });
    // The shared app's sandbox may still be replacing processes killed by other tests: only the new app's count.
    const dispatched = nextEvent('dispatch');
    await byId(3);
    const shared = (await dispatched).sandbox;
    const theirs = () => events.filter((e) => e.sandbox !== shared);
    const full = await get(1);
    expect(full.statusCode).toBe(200);
    const { score: _s, matchedOn: _m, ...fields } = full.json().identities[0];
    expect(fields).toEqual(await fullRecord());
    expect(theirs()).toEqual([]);

    expect((await get(3)).statusCode).toBe(200);
    const spawned = theirs().filter((e) => e.event === 'spawn');
    expect(spawned.length).toBeGreaterThan(0);
    await other.app.close();
    const exited = new Set(events.filter((e) => e.event === 'exit').map((e) => e.pid));
    for (const { pid } of spawned) expect(exited.has(pid)).toBe(true);
  });
});
