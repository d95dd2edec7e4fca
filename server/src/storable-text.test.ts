/**
 * Text PostgreSQL cannot store (issue 12 item 10): a NUL, or a UTF-16 surrogate without its pair, in any text input
 * is refused with 400 naming the field on every endpoint that takes text, and never reaches the database (where it
 * answered 500). A PUT lookup marks the row holding one and reads on.
 */
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
import { PII_MESSAGES } from '@tessera/common/lookups';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_BATCH } from './features/identities/csv-stream';
import { load, person } from './features/identities/test-people';
import { memoryLimiter } from './features/throttle/limiter';
import { consoleClient } from './test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeContract,
  makeCustomer,
  makeOrganization,
  PASSWORD,
  signIn,
  type TestApp,
  uniqueDomain,
} from './test/harness';

let t: TestApp;
let cookie: string;
let superId: number;
let organizationId: number;
let contractId: number;
let keyId: string;
/** A domain whose organization accepts users, so a sign-up would get as far as writing. */
let accepting: string;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  t = await buildTestApp({ limiter: memoryLimiter() });
  const caller = await makeCustomer(t.database, 'super');
  superId = caller.id;
  cookie = await signIn(t.app, caller.email);
  organizationId = (await makeOrganization(t.database, undefined, { emailDomain: uniqueDomain() })).id;
  contractId = (await makeContract(t.database, organizationId)).id;
  keyId = Object.keys((await api.post('/v2/keys', cookie, { name: 'Fine' })).json().keys)[0]!;
  accepting = uniqueDomain();
  await makeOrganization(t.database, undefined, { emailDomain: accepting, acceptUsers: true });
});
afterAll(() => t.app.close());

const BAD = { NUL: 'a\u0000b', 'an unpaired surrogate': 'a\ud800b' } as const;
const year = 365 * 24 * 3600_000;

/** Each endpoint and method taking text, with a body carrying `bad` in one field, and that field's path. */
const CASES: {
  call: string;
  send: (bad: string) => Promise<{ statusCode: number; json: () => { fields?: unknown[] } }>;
  path: string;
  /** A URL cannot carry an unpaired surrogate (see the percent-escape test below). */
  inUrl?: true;
}[] = [
  {
    call: 'GET /v2/identities/byEmail',
    inUrl: true,
    send: (bad) => api.get(`/v2/identities/byEmail?email=${encodeURIComponent(`${bad}@people.example`)}`, cookie),
    path: 'querystring.email',
  },
  {
    call: 'POST /v2/identities/byPii',
    send: (bad) =>
      api.post('/v2/identities/byPii', cookie, { inputs: [{ firstName: bad, lastName: 'Doe', zip: '62701' }] }),
    path: 'body.inputs.0.firstName',
  },
  {
    call: 'POST /auth/login',
    send: (bad) => api.post('/auth/login', '', { email: `${bad}@tessera.test`, password: PASSWORD }),
    path: 'body.email',
  },
  {
    call: 'POST /auth/preapprove',
    send: (bad) => api.post('/auth/preapprove', '', { email: `${bad}@tessera.test` }),
    path: 'body.email',
  },
  {
    call: 'POST /auth/forgot',
    send: (bad) => api.post('/auth/forgot', '', { email: `${bad}@tessera.test` }),
    path: 'body.email',
  },
  {
    call: 'POST /auth/signup',
    send: (bad) => api.post('/auth/signup', '', { name: bad, email: `new@${accepting}` }),
    path: 'body.name',
  },
  { call: 'POST /v2/keys', send: (bad) => api.post('/v2/keys', cookie, { name: bad }), path: 'body.name' },
  { call: 'PUT /v2/keys/:id', send: (bad) => api.put(`/v2/keys/${keyId}`, cookie, { name: bad }), path: 'body.name' },
  {
    call: 'POST /v2/users',
    send: (bad) =>
      api.post('/v2/users', cookie, { email: `u@${uniqueDomain()}`, name: bad, role: 'user', organizationId }),
    path: 'body.name',
  },
  {
    call: 'PUT /v2/users/:id',
    send: (bad) => api.put(`/v2/users/${superId}`, cookie, { title: bad }),
    path: 'body.title',
  },
  {
    call: 'POST /v2/organizations',
    send: (bad) => api.post('/v2/organizations', cookie, { name: bad }),
    path: 'body.name',
  },
  {
    call: 'PUT /v2/organizations/:id',
    send: (bad) => api.put(`/v2/organizations/${organizationId}`, cookie, { name: bad }),
    path: 'body.name',
  },
  {
    call: 'POST /v2/contracts',
    send: (bad) =>
      api.post('/v2/contracts', cookie, {
        organizationId,
        name: bad,
        startsAt: new Date(Date.now() - year).toISOString(),
        endsAt: new Date(Date.now() + year).toISOString(),
      }),
    path: 'body.name',
  },
  {
    call: 'PUT /v2/contracts/:id',
    send: (bad) => api.put(`/v2/contracts/${contractId}`, cookie, { name: bad }),
    path: 'body.name',
  },
];

describe('text the database cannot store', () => {
  for (const [what, bad] of Object.entries(BAD)) {
    it.each(CASES.filter((c) => what === 'NUL' || !c.inUrl))(
      `$call refuses ${what} with 400 naming the field`,
      async ({ send, path }) => {
        const res = await send(bad);
        expect(res.statusCode).toBe(400);
        expect(res.json().fields).toEqual([{ path, message: MESSAGES.text }]);
      },
    );
  }

  it('names the field of a sign-in password, a user’s e-mail and a new user’s name too', async () => {
    const login = await api.post('/auth/login', '', { email: 'someone@tessera.test', password: `Aa1!${BAD.NUL}` });
    expect(login.json().fields).toEqual([{ path: 'body.password', message: MESSAGES.text }]);
    const user = await api.post('/v2/users', cookie, {
      email: `u${BAD.NUL}@${uniqueDomain()}`,
      name: BAD['an unpaired surrogate'],
      role: 'user',
      organizationId,
    });
    expect(user.json().fields).toEqual([
      { path: 'body.email', message: MESSAGES.text },
      { path: 'body.name', message: MESSAGES.text },
    ]);
  });

  it('refuses a NUL in a query string name or a JSON key as an unknown input, never reaching the database', async () => {
    const query = await api.get('/v2/identities/byEmail?em%00ail=a%40people.example', cookie);
    expect(query.statusCode).toBe(400);
    expect(query.json().fields).toEqual([
      { path: 'querystring.em\u0000ail', message: PII_MESSAGES.unknownInput('em\u0000ail', 'byEmail') },
    ]);
    const input = await api.post('/v2/identities/byPii', cookie, {
      inputs: [{ 'first\u0000Name': 'Ann', lastName: 'Doe', zip: '62701' }],
    });
    expect(input.statusCode).toBe(400);
    expect(input.json().fields[0].path).toBe('body.inputs.0.first\u0000Name');
    // A key no schema knows is refused where the schema is strict, and dropped unread where it is not.
    const key = await api.post('/v2/keys', cookie, { name: 'Fine', 'na\u0000me': 'x' });
    expect(key.statusCode).toBe(400);
    const organization = await api.post('/v2/organizations', cookie, { name: 'Fine', 'na\u0000me': 'x' });
    expect(organization.statusCode).toBe(200);
  });

  it('reads an undecodable percent-escape in a query string as text it can store', async () => {
    // %ED%A0%80 would be an unpaired surrogate in UTF-8; the query parser keeps it as the escape's own characters.
    const res = await api.get('/v2/identities/byEmail?email=a%ED%A0%80b%40people.example', cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'querystring.email', message: LOOKUP_MESSAGES.email }]);
  });

  it.each([
    ['in the first batch', 1],
    ['after the reply has begun', STREAM_BATCH + 1],
  ])('marks a PUT row holding a NUL %s with its own error and looks up the rows after it', async (_, before) => {
    const [a, b] = [person(), person()];
    await load(t.database, a, b);
    const rows = [
      'email,firstName,lastName,zip',
      ...Array<string>(before).fill(`${a.emails[0]!.address},,,`),
      `,Ann${BAD.NUL},Doe,62701`,
      `${b.emails[0]!.address},,,`,
    ];
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v2/identities/byAny?template=3',
      headers: { ...CONSOLE_HEADERS, cookie, 'content-type': 'text/csv' },
      payload: `${rows.join('\n')}\n`,
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(rows.length);
    const header = lines[0]!.split(',');
    const cell = (line: string, name: string) => line.split(',')[header.indexOf(name)];
    expect(cell(lines[before]!, 'id')).toBe(String(a.id));
    expect(lines[before + 1]).toContain(`line ${before + 2}: firstName: ${MESSAGES.text}`);
    expect(cell(lines[before + 2]!, 'id')).toBe(String(b.id));
  });
});
