/** POST lookups: many inputs at once, answered in order with one statement per key type, never one per input. */
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
import { METADATA_LIMITS, METADATA_MESSAGES } from '@tessera/common/lookups';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp, testDatabase } from '../../test/harness';
import { POST_MESSAGES } from './routes';
import { daysAgo, load, md5, person, sha256, suppress, uniqueEmail, uniqueIpv6 } from './test-people';

let t: TestApp;
let cookie: string;
const statements: string[] = [];
const api = consoleClient(() => t.app);
beforeAll(async () => {
  const real = await testDatabase();
  // The real database, with every statement the lookup sends noted down.
  const counted: Database = {
    ...real,
    query: (text, params) => {
      statements.push(text);
      return real.query(text, params);
    },
  };
  t = await buildTestApp({ database: counted });
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
});
afterAll(() => t.app.close());

const post = (path: string, body: unknown) => api.post(`/v2/identities/${path}`, cookie, body);

describe('POST lookups', () => {
  it('answers every input in order, echoing it, with plain strings and objects mixed', async () => {
    const a = person();
    const b = person();
    await load(t.database, a, b);
    const unknown = uniqueEmail();
    const res = await post('byEmail', {
      inputs: [a.emails[0]!.address.toUpperCase(), { email: b.emails[0]!.address }, unknown],
      template: 3,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect(body.results).toEqual([
      {
        input: a.emails[0]!.address.toUpperCase(),
        identities: [{ score: 97, matchedOn: ['email'], id: a.id, emails: [a.emails[0]!.address] }],
      },
      {
        input: { email: b.emails[0]!.address },
        identities: [{ score: 97, matchedOn: ['email'], id: b.id, emails: [b.emails[0]!.address] }],
      },
      { input: unknown, identities: [] },
    ]);
  });

  it('looks up 100 e-mails and 100 phones with one statement for both key types', async () => {
    const people = Array.from({ length: 100 }, () => person());
    await load(t.database, ...people);
    await post('byAny', { inputs: [{ email: uniqueEmail() }] }); // warm the template cache
    statements.length = 0;
    const inputs = people.flatMap((p) => [{ email: p.emails[0]!.address }, { phone: p.phones[0]!.number }]);
    const res = await post('byAny', { inputs });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { identities: { id: number }[] }) => r.identities[0]?.id)).toEqual(
      people.flatMap((p) => [p.id, p.id]),
    );
    const lookups = statements.filter((s) => s.includes('from person_'));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toContain('person_emails e where e.address = any');
    expect(lookups[0]).toContain('person_phones f where f.number = any');
    // The lookup, and the usage row: nothing per input.
    expect(statements.length).toBeLessThanOrEqual(3);
  });

  it('answers the PII inputs of a batch with one candidate statement', async () => {
    const people = Array.from({ length: 20 }, () => person({ zip: String(10000 + Math.floor(Math.random() * 80000)) }));
    await load(t.database, ...people);
    statements.length = 0;
    const res = await post('byPii', {
      inputs: people.map((p) => ({
        firstName: p.firstName,
        lastName: p.lastName,
        address: p.address,
        state: p.state,
        zip: p.zip,
      })),
    });
    expect(res.json().results.map((r: { identities: { id: number }[] }) => r.identities[0]?.id)).toEqual(
      people.map((p) => p.id),
    );
    expect(statements.filter((s) => s.includes('dmetaphone'))).toHaveLength(1);
    // Their records: one read of the stored ones, and nothing built (every one of them was stored by the load).
    expect(statements.filter((s) => s.includes('from person_records r'))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('j_emails'))).toHaveLength(0);
  });

  it('never finds a suppressed e-mail or phone, and leaves them out of the records found by other keys', async () => {
    const p = person();
    await load(t.database, p);
    await suppress(t.database, 'email', p.emails[0]!.address);
    await suppress(t.database, 'phone', p.phones[0]!.number);
    const res = await post('byAny', {
      inputs: [{ email: p.emails[0]!.address }, { phone: p.phones[0]!.number }, { id: String(p.id) }],
    });
    const [byEmail, byPhone, byId] = res.json().results;
    expect(byEmail.identities).toEqual([]);
    expect(byPhone.identities).toEqual([]);
    expect(byId.identities[0]).toMatchObject({ id: p.id, emails: [], phones: [] });
  });

  it('never finds an e-mail suppressed by either hash, nor a suppressed person by any key', async () => {
    const byMd5 = person();
    const bySha = person();
    const gone = person();
    await load(t.database, byMd5, bySha, gone);
    await suppress(t.database, 'md5', md5(byMd5.emails[0]!.address));
    await suppress(t.database, 'sha256', sha256(bySha.emails[0]!.address));
    await suppress(t.database, 'identity', String(gone.id));
    const res = await post('byAny', {
      inputs: [
        { email: byMd5.emails[0]!.address },
        { sha256: sha256(bySha.emails[0]!.address) },
        { id: String(byMd5.id) },
        { phone: gone.phones[0]!.number },
        { vin: gone.vehicles[0]!.vin },
      ],
    });
    const [a, b, c, d, e] = res.json().results;
    expect(a.identities).toEqual([]);
    expect(b.identities).toEqual([]);
    expect(c.identities[0]).toMatchObject({ id: byMd5.id, emails: [] });
    expect(d.identities).toEqual([]);
    expect(e.identities).toEqual([]);
  });

  it('splits a shared key among the people not suppressed, counts them all, and returns only limit of them', async () => {
    const ip = uniqueIpv6();
    const seen = (days: number) => ({ firstSeen: daysAgo(900), lastSeen: daysAgo(days) });
    const holders = [1, 2, 3, 4, 5].map((d) => person({ ips: [{ ip, ...seen(d) }] }));
    await load(t.database, ...holders);
    await suppress(t.database, 'identity', String(holders[4]!.id));
    const res = await post('byIp', { inputs: [ip], limit: 2, explain: true });
    const identities = res.json().results[0].identities;
    expect(identities.map((i: { id: number }) => i.id)).toEqual([holders[0]!.id, holders[1]!.id]);
    expect(identities[0].explain.keys[0].sharedBy).toBe(4);
    expect(identities[0].score).toBe(18); // 0.7 / 4
  });

  it('finds an IPv6 address written with an embedded IPv4 tail', async () => {
    const p = person({ ips: [{ ip: '::102:304', firstSeen: daysAgo(30), lastSeen: daysAgo(3) }] });
    await load(t.database, p);
    const res = await post('byIp', { inputs: ['::1.2.3.4', '0:0:0:0:0:0:102:304'] });
    for (const result of res.json().results) {
      expect(result.identities.map((i: { id: number }) => i.id)).toContain(p.id);
    }
  });

  it("lowers a key's match when the name given with it belongs to someone else", async () => {
    const p = person({ firstName: 'Winifred', lastName: 'Aldersgate' });
    await load(t.database, p);
    const email = p.emails[0]!.address;
    const fits = { email, firstName: 'Winifred', lastName: 'Aldersgate', address: p.address, state: 'IL', zip: p.zip };
    const other = {
      email,
      firstName: 'Bartholomew',
      lastName: 'Quince',
      address: '1 Far Away Rd',
      state: 'WA',
      zip: '98101',
    };
    const [right, wrong] = (await post('byAny', { inputs: [fits, other], explain: true })).json().results;
    expect(right.identities[0]).toMatchObject({ id: p.id, score: 100 });
    expect(wrong.identities[0].id).toBe(p.id);
    expect(wrong.identities[0].score).toBeLessThan(50);
    expect(wrong.identities[0].matchedOn).toEqual(['email']);
    expect(wrong.identities[0].explain.pii.weight).toBeLessThan(0);
  });

  it('gives a caller whose record types are all unknown no record types, not all of them', async () => {
    const odd = await makeCustomer(t.database, 'user', { allowedRecordTypes: ['notAType'] });
    const oddCookie = await signIn(t.app, odd.email);
    const p = person();
    await load(t.database, p);
    const res = await api.post('/v2/identities/byId', oddCookie, { inputs: [String(p.id)] });
    expect(res.json().results[0].identities[0]).toMatchObject({
      id: p.id,
      emails: [],
      phones: [],
      finances: null,
      data: {},
    });
  });

  it('refuses a missing, empty, oversized or malformed batch with 400 naming each bad input', async () => {
    for (const body of [undefined, {}, { inputs: 'x' }, { inputs: [] }]) {
      const res = await post('byEmail', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'body.inputs', message: POST_MESSAGES.body }]);
    }
    const tooMany = await post('byEmail', { inputs: Array.from({ length: 1001 }, () => uniqueEmail()) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fields).toEqual([{ path: 'body.inputs', message: POST_MESSAGES.tooMany }]);
    const bad = await post('byEmail', { inputs: [uniqueEmail(), 'nope', { email: 'also nope' }, 7, [1]] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([
      { path: 'body.inputs.1.email', message: LOOKUP_MESSAGES.email },
      { path: 'body.inputs.2.email', message: LOOKUP_MESSAGES.email },
      { path: 'body.inputs.3.email', message: LOOKUP_MESSAGES.email },
      { path: 'body.inputs.4', message: 'Each input is a string or an object of named inputs.' },
    ]);
    const pii = await post('byPii', { inputs: ['Ann Smith'] });
    expect(pii.json().fields[0].path).toBe('body.inputs.0');
    const option = await post('byEmail', { inputs: [uniqueEmail()], limit: 500 });
    expect(option.json().fields).toEqual([
      { path: 'body.limit', message: 'Please give limit as a whole number from 1 to 100.' },
    ]);
  });

  it("echoes each input's metadata unchanged in its result, in JSON and as CSV columns, and meters as without", async () => {
    const a = person();
    const b = person();
    await load(t.database, a, b);
    const metadata = { customerId: 'c-1', row: 7, vip: true, note: null, 'utf-8': 'é€' };
    const inputs = [
      { email: a.emails[0]!.address, metadata },
      b.emails[0]!.address,
      { email: uniqueEmail(), metadata: { customerId: 'c-3' } },
    ];
    const res = await post('byEmail', { inputs, template: 3 });
    expect(res.statusCode).toBe(200);
    const results = res.json().results;
    expect(results[0]).toEqual({
      input: { email: a.emails[0]!.address },
      metadata,
      identities: [expect.objectContaining({ id: a.id })],
    });
    expect(Object.keys(results[1])).toEqual(['input', 'identities']);
    expect(results[2]).toEqual({
      input: { email: (inputs[2] as { email: string }).email },
      metadata: { customerId: 'c-3' },
      identities: [],
    });

    const csv = await post('byEmail', { inputs, template: 3, format: 'csv' });
    const [header, ...rows] = csv.body
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split(','));
    expect(header!.slice(0, 8)).toEqual([
      'input.email',
      'metadata.customerId',
      'metadata.row',
      'metadata.vip',
      'metadata.note',
      'metadata.utf-8',
      'score',
      'matchedOn',
    ]);
    expect(rows[0]!.slice(1, 6)).toEqual(['c-1', '7', 'true', '', 'é€']);
    expect(rows[1]!.slice(1, 6)).toEqual(['', '', '', '', '']);
    expect(rows[2]!.slice(1, 6)).toEqual(['c-3', '', '', '', '']);

    // Metadata changes nothing that is counted or charged.
    const without = await post('byEmail', {
      inputs: inputs.map((i) => (typeof i === 'string' ? i : i.email)) as string[],
      template: 3,
    });
    const usage = async (id: unknown) => {
      const [row] = await t.database.query<Record<string, unknown>>('select * from usage where request_id = $1', [id]);
      // The ids, times, transaction and fingerprint (which tells one request from another) differ by nature.
      const {
        id: _id,
        request_id: _r,
        at: _a,
        created_at: _c,
        milliseconds: _m,
        txid: _x,
        request_hash: _h,
        ...rest
      } = row!;
      return rest;
    };
    expect(await usage(res.headers['x-request-id'])).toEqual(await usage(without.headers['x-request-id']));
  });

  it('refuses metadata that is not a flat object of at most 1 KB, naming the field', async () => {
    const email = uniqueEmail();
    const cases: [unknown, string, string][] = [
      ['c-1', 'body.inputs.0.metadata', METADATA_MESSAGES.object],
      [['a'], 'body.inputs.0.metadata', METADATA_MESSAGES.object],
      [null, 'body.inputs.0.metadata', METADATA_MESSAGES.object],
      [{ nested: { a: 1 } }, 'body.inputs.0.metadata.nested', METADATA_MESSAGES.value('nested')],
      [{ list: [1, 2] }, 'body.inputs.0.metadata.list', METADATA_MESSAGES.value('list')],
      [{ big: 'x'.repeat(METADATA_LIMITS.maxBytes) }, 'body.inputs.0.metadata', METADATA_MESSAGES.tooLarge],
    ];
    for (const [metadata, path, message] of cases) {
      const res = await post('byEmail', { inputs: [{ email, metadata }] });
      expect(res.statusCode, JSON.stringify(metadata)).toBe(400);
      expect(res.json().fields).toEqual([{ path, message }]);
    }
    // Just under the limit is fine; a GET has no metadata (its query string is its inputs).
    const fits = { big: 'x'.repeat(METADATA_LIMITS.maxBytes - 10) };
    expect(Buffer.byteLength(JSON.stringify(fits))).toBe(METADATA_LIMITS.maxBytes);
    expect((await post('byEmail', { inputs: [{ email, metadata: fits }] })).statusCode).toBe(200);
    const get = await api.get(`/v2/identities/byEmail?email=${email}&metadata=x`, cookie);
    expect(get.statusCode).toBe(400);
    expect(get.json().fields[0].path).toBe('querystring.metadata');
  });

  it('needs the console header from a session, like every state-changing console call', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/identities/byEmail',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { inputs: [uniqueEmail()] },
    });
    expect(res.statusCode).toBe(403);
  });
});
