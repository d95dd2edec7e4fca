/** POST lookups: many inputs at once, answered in order with one statement per key type, never one per input. */
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
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
