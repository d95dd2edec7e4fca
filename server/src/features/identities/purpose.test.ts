/**
 * Permissible purpose on every lookup (issue 34 item 2): under a contract that lists purposes a call names one (its
 * `purpose` parameter, else its X-Permissible-Purpose header, else its key's default) or answers 403 naming the
 * allowed ones; an id that is no purpose answers 400; the purpose used is on the call's audit rows.
 */
import { PURPOSE_MESSAGES } from '@tessera/common/purposes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from './test-people';

let t: TestApp;
const api = consoleClient(() => t.app);
const p = person();
const email = encodeURIComponent(p.emails[0]!.address);
const ALLOWED = ['fcra-employment', 'dppa-insurance'];
const REQUIRED = `This lookup needs a permissible purpose. Your contract allows: fcra-employment, dppa-insurance. Name one with purpose= or the X-Permissible-Purpose header.`;
const LACKED = `Your contract does not allow the permissible purpose glba-fraud-prevention. It allows: fcra-employment, dppa-insurance.`;
let regulated: { cookie: string; auth: string; defaulted: string };
let open: { auth: string };

async function withKey(contract: { purposes: string[] | null }) {
  const user = await makeCustomer(t.database, 'user', { contract });
  const cookie = await signIn(t.app, user.email);
  const key = async (body: Record<string, unknown>) => {
    const res = await api.post('/v2/keys', cookie, { name: 'Lookups', ...body });
    expect(res.statusCode, res.body).toBe(201);
    const made = Object.values(res.json().keys)[0] as { id: string; secret: string };
    return `Bearer ${made.id}${made.secret}`;
  };
  return { cookie, auth: await key({}), defaulted: await key({ defaultPurpose: 'dppa-insurance' }) };
}

beforeAll(async () => {
  t = await buildTestApp();
  await load(t.database, p);
  regulated = await withKey({ purposes: ALLOWED });
  open = await withKey({ purposes: null });
});
afterAll(() => t.app.close());

const get = (auth: string, query = '', headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/v2/identities/byEmail?email=${email}${query}`,
    headers: { authorization: auth, ...headers },
  });
const auditOf = async (requestId: unknown) =>
  (
    await t.database.query<{ purpose: string | null }>(
      'select purpose from lookup_audit where request_id = $1 order by input',
      [String(requestId)],
    )
  ).map((r) => r.purpose);
const refused = (res: { statusCode: number; json(): { error: string } }) => [res.statusCode, res.json().error];

describe('a lookup under a contract that lists permissible purposes', () => {
  it('403 without a purpose, naming the allowed ones; nothing metered or audited', async () => {
    const res = await get(regulated.auth);
    expect(refused(res)).toEqual([403, REQUIRED]);
    expect(await auditOf(res.headers['x-request-id'])).toEqual([]);
    const used = await t.database.query('select 1 from usage where request_id = $1', [
      String(res.headers['x-request-id']),
    ]);
    expect(used).toEqual([]);
  });

  it('200 with an allowed one, the purpose on the audit row', async () => {
    const res = await get(regulated.auth, '&purpose=fcra-employment');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().identities).toHaveLength(1);
    expect(await auditOf(res.headers['x-request-id'])).toEqual(['fcra-employment']);
  });

  it('403 with one the contract lacks, naming the allowed ones', async () => {
    expect(refused(await get(regulated.auth, '&purpose=glba-fraud-prevention'))).toEqual([403, LACKED]);
    expect(refused(await get(regulated.auth, '', { 'x-permissible-purpose': 'glba-fraud-prevention' }))).toEqual([
      403,
      LACKED,
    ]);
  });

  it('400 for an id that is no purpose, from the parameter or the header', async () => {
    for (const res of [
      await get(regulated.auth, '&purpose=curiosity'),
      await get(open.auth, '', { 'x-permissible-purpose': 'curiosity' }),
    ]) {
      expect(refused(res)).toEqual([400, PURPOSE_MESSAGES.unknown('curiosity')]);
    }
  });

  it('takes the header, the parameter before the header, and the key’s default when the call names none', async () => {
    const header = await get(regulated.auth, '', { 'x-permissible-purpose': 'dppa-insurance' });
    expect(header.statusCode, header.body).toBe(200);
    expect(await auditOf(header.headers['x-request-id'])).toEqual(['dppa-insurance']);

    const both = await get(regulated.auth, '&purpose=fcra-employment', {
      'x-permissible-purpose': 'glba-fraud-prevention',
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(await auditOf(both.headers['x-request-id'])).toEqual(['fcra-employment']);

    const byDefault = await get(regulated.defaulted);
    expect(byDefault.statusCode, byDefault.body).toBe(200);
    expect(await auditOf(byDefault.headers['x-request-id'])).toEqual(['dppa-insurance']);

    const overridden = await get(regulated.defaulted, '&purpose=fcra-employment');
    expect(overridden.statusCode, overridden.body).toBe(200);
    expect(await auditOf(overridden.headers['x-request-id'])).toEqual(['fcra-employment']);
  });

  it('applies to POST and a streamed PUT alike, every input audited with the purpose', async () => {
    const post = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/identities/byAny${query}`,
        headers: { authorization: regulated.auth, 'content-type': 'application/json' },
        payload: { inputs: [{ email: p.emails[0]!.address }, { email: 'nobody@example.com' }] },
      });
    expect(refused(await post(''))).toEqual([403, REQUIRED]);
    const posted = await post('?purpose=dppa-insurance');
    expect(posted.statusCode, posted.body).toBe(200);
    expect(await auditOf(posted.headers['x-request-id'])).toEqual(['dppa-insurance', 'dppa-insurance']);

    const put = (query: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/v2/identities/byEmail${query}`,
        headers: { authorization: regulated.auth, 'content-type': 'text/csv' },
        payload: `email\n${p.emails[0]!.address}\n`,
      });
    expect(refused(await put(''))).toEqual([403, REQUIRED]);
    const streamed = await put('?purpose=fcra-employment');
    expect(streamed.statusCode, streamed.body).toBe(200);
    expect(await auditOf(streamed.headers['x-request-id'])).toEqual(['fcra-employment']);
  });

  it('holds a console session (the playground) to the same rule: it has no key, so it names one', async () => {
    const url = `/v2/identities/byEmail?email=${email}`;
    expect(refused(await api.get(url, regulated.cookie))).toEqual([403, REQUIRED]);
    const named = await api.get(`${url}&purpose=dppa-insurance`, regulated.cookie);
    expect(named.statusCode, named.body).toBe(200);
    expect(await auditOf(named.headers['x-request-id'])).toEqual(['dppa-insurance']);
  });
});

describe('a lookup under a contract that lists none', () => {
  it('needs no purpose, and keeps one when named', async () => {
    const none = await get(open.auth);
    expect(none.statusCode, none.body).toBe(200);
    expect(await auditOf(none.headers['x-request-id'])).toEqual([null]);
    const named = await get(open.auth, '&purpose=glba-fraud-prevention');
    expect(named.statusCode, named.body).toBe(200);
    expect(await auditOf(named.headers['x-request-id'])).toEqual(['glba-fraud-prevention']);
  });
});

describe('the staff audit view', () => {
  it('shows the purpose each lookup was made for', async () => {
    const staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const q = person();
    await load(t.database, q);
    const url = `/v2/identities/byEmail?email=${encodeURIComponent(q.emails[0]!.address)}`;
    const made = await t.app.inject({
      method: 'GET',
      url: `${url}&purpose=dppa-insurance`,
      headers: { authorization: regulated.auth },
    });
    expect(made.statusCode, made.body).toBe(200);
    const res = await api.get(`/v2/audit/lookups?value=${encodeURIComponent(q.emails[0]!.address)}`, staff);
    expect(res.statusCode, res.body).toBe(200);
    const entries = Object.values(res.json().lookupAudit) as { requestId: string; purpose: string | null }[];
    expect(entries.map((e) => [e.requestId, e.purpose])).toEqual([
      [String(made.headers['x-request-id']), 'dppa-insurance'],
    ]);
  });
});
