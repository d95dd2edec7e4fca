/**
 * The lookup audit trail (issue 22 item 3): every lookup (GET, POST, PUT) records per input the keyed hashes of its
 * values, the caller, key, endpoint, request id and identities returned, with its usage row; staff find who looked
 * up a value by the value (any form of an e-mail) or by identity; no table holds the plain value anywhere.
 */
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import { describe, expect, it } from 'vitest';
import { CONSOLE_HEADERS } from '../../test/harness';
import { load, md5, person, sha256, uniqueEmail, uniquePhone } from '../identities/test-people';
import { stewardshipApp } from './test-setup';

const s = stewardshipApp();

type Entry = {
  requestId: string;
  userId: number;
  keyId: string | null;
  method: string;
  path: string;
  input: number;
  identityIds: number[];
};
const trail = async (q: string) => {
  const res = await s.api.get(`/v2/audit/lookups?${q}`, s.staff);
  expect(res.statusCode).toBe(200);
  return (Object.values(res.json().lookupAudit) as Entry[]).sort((a, b) => a.requestId.localeCompare(b.requestId));
};

describe('the lookup audit trail', () => {
  it('finds every lookup of a value by any of its forms, with the caller, endpoint, request and identities', async () => {
    const p = person();
    await load(s.t.database, p);
    const email = p.emails[0]!.address;
    const other = uniqueEmail();
    const get = await s.api.get(`/v2/identities/byEmail?email=${email.toUpperCase()}`, s.customer);
    const post = await s.api.post('/v2/identities/byMd5', s.customer, { inputs: [md5(other), md5(email)] });
    const put = await s.t.app.inject({
      method: 'PUT',
      url: '/v2/identities/bySha256',
      headers: { ...CONSOLE_HEADERS, cookie: s.customer, 'content-type': 'text/csv' },
      payload: `sha256\r\n${sha256(other)}\r\n${sha256(email)}\r\n`,
    });
    expect([get.statusCode, post.statusCode, put.statusCode]).toEqual([200, 200, 200]);
    const ids = [get, post, put].map((r) => String(r.headers['x-request-id'])).sort();

    const methods = async (q: string) => (await trail(q)).map((e) => `${e.method} ${e.path}`).sort();
    const found = await trail(`value=${encodeURIComponent(email)}`);
    expect(found.map((e) => e.requestId)).toEqual(ids);
    for (const e of found) {
      expect(e).toMatchObject({
        userId: s.customerId,
        keyId: null,
        identityIds: [p.id],
        input: e.method === 'GET' ? 0 : 1,
      });
    }
    // By address: every form. A hash cannot be turned into the other: it finds its own form and the address.
    expect(found.map((e) => `${e.method} ${e.path}`).sort()).toEqual(['GET /byEmail', 'POST /byMd5', 'PUT /bySha256']);
    expect(await methods(`value=${md5(email)}`)).toEqual(['GET /byEmail', 'POST /byMd5']);
    expect(await methods(`value=${sha256(email).toUpperCase()}`)).toEqual(['GET /byEmail', 'PUT /bySha256']);
    // By the identity returned.
    expect((await trail(`identityId=${p.id}`)).map((e) => e.requestId)).toEqual(ids);
    // The other address was looked up twice and found nobody.
    const misses = await trail(`value=${other}`);
    expect(misses.map((e) => e.identityIds)).toEqual([[], []]);
  });

  it('a phone and a PII lookup are recorded too; nothing is found for a value never looked up', async () => {
    const p = person();
    await load(s.t.database, p);
    const phone = p.phones[0]!.number;
    await s.api.get(`/v2/identities/byPhone?phone=${encodeURIComponent(phone)}`, s.customer);
    expect((await trail(`value=${encodeURIComponent(phone)}`)).map((e) => e.identityIds)).toEqual([[p.id]]);
    expect(await trail(`value=${encodeURIComponent(uniquePhone())}`)).toEqual([]);
  });

  it('holds no plain value in any table', async () => {
    // A value no person has: only the lookup itself could have written it down.
    const email = uniqueEmail();
    const phone = uniquePhone();
    await s.api.get(`/v2/identities/byEmail?email=${email}`, s.customer);
    await s.api.post('/v2/identities/byAny', s.customer, { inputs: [{ email, phone }] });
    expect((await trail(`value=${email}`)).length).toBe(2);
    const tables = await s.t.database.query<{ name: string }>(
      "select quote_ident(table_name) as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    const needles = [email, phone, phone.replace('+', ''), md5(email), sha256(email)];
    const holding: string[] = [];
    for (const { name } of tables) {
      const [row] = await s.t.database.query<{ n: number }>(
        `select count(*)::int as n from ${name} t where strpos(t::text, $1) > 0 or strpos(t::text, $2) > 0
           or strpos(t::text, $3) > 0 or strpos(t::text, $4) > 0 or strpos(t::text, $5) > 0`,
        needles,
      );
      if (row!.n > 0) holding.push(name);
    }
    expect(holding).toEqual([]);
  });

  it('400 without a value, 401 signed out, 403 below super', async () => {
    const bad = await s.api.get('/v2/audit/lookups', s.staff);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([{ path: 'querystring.value', message: STEWARDSHIP_MESSAGES.auditValue }]);
    expect((await s.api.get('/v2/audit/lookups?value=a@b.example', '')).statusCode).toBe(401);
    expect((await s.api.get('/v2/audit/lookups?value=a@b.example', s.admin)).statusCode).toBe(403);
  });
});
