/** POST lookups: many inputs at once, answered in order with one statement per key type, never one per input. */
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp, testDatabase } from '../../test/harness';
import { POST_MESSAGES } from './routes';
import { load, person, suppress, uniqueEmail } from './test-people';

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
  cookie = await signIn(t.app, (await makeUser(t.database, 'user')).email);
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
    expect(statements.filter((s) => s.includes('from people p where p.id = any'))).toHaveLength(1);
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
