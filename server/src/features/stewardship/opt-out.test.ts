/**
 * Opt-out requests (issue 22 item 1): from the request to the mailed link to lookups returning nothing on every
 * endpoint and method; equal replies whether or not the address is in the graph; the link used once; throttled.
 */

import { CONTACT_MESSAGES } from '@tessera/common/contact';
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import { MESSAGES } from '@tessera/common/validation';
import { describe, expect, it } from 'vitest';
import { CONSOLE_HEADERS } from '../../test/harness';
import { load, md5, person, sha256, uniqueEmail, uniqueZip } from '../identities/test-people';
import { hashToken } from '../sessions/tokens';
import { OPT_OUT_THROTTLE } from './opt-out-routes';
import { freshIp, mailedToken, mailsTo, requestOptOut, stewardshipApp } from './test-setup';

const s = stewardshipApp();

function confirm(token: string) {
  return s.t.app.inject({
    method: 'POST',
    url: '/v2/opt-out/confirm',
    headers: CONSOLE_HEADERS,
    payload: { token },
    remoteAddress: freshIp(),
  });
}

type Person = ReturnType<typeof person>;

/** How many identities each way of looking this person up returns. */
async function foundEverywhere(p: Person): Promise<Record<string, number>> {
  const email = p.emails[0]!.address;
  const phone = p.phones[0]!.number;
  const get = async (path: string) => (await s.api.get(`/v2/identities/${path}`, s.customer)).json().identities.length;
  const pii = new URLSearchParams({
    firstName: p.firstName,
    lastName: p.lastName,
    address: p.address,
    city: p.city,
    state: p.state,
    zip: p.zip,
  });
  const post = await s.api.post('/v2/identities/byEmail', s.customer, { inputs: [email] });
  const put = await s.t.app.inject({
    method: 'PUT',
    url: '/v2/identities/byEmail?template=3',
    headers: { ...CONSOLE_HEADERS, cookie: s.customer, 'content-type': 'text/csv' },
    payload: `email\r\n${email}\r\n`,
  });
  const [header, row] = put.body.split('\r\n');
  const idColumn = header!.split(',').indexOf('id');
  return {
    getEmail: await get(`byEmail?email=${encodeURIComponent(email.toUpperCase())}`),
    getMd5: await get(`byMd5?md5=${md5(email)}`),
    getSha256: await get(`bySha256?sha256=${sha256(email)}`),
    getPhone: await get(`byPhone?phone=${encodeURIComponent(phone)}`),
    getId: await get(`byId?id=${p.id}`),
    getPii: await get(`byPii?${pii}`),
    post: post.json().results[0].identities.length,
    put: row!.split(',')[idColumn] === String(p.id) ? 1 : 0,
  };
}

describe('an opt-out from request to confirmation', () => {
  it('leaves the person out of every lookup (GET, POST, PUT; e-mail, MD5, SHA-256, phone, PII, id)', async () => {
    const p = person({ zip: uniqueZip() });
    await load(s.t.database, p);
    const before = await foundEverywhere(p);
    expect(Object.values(before).every((n) => n >= 1)).toBe(true);

    const email = p.emails[0]!.address;
    const asked = await requestOptOut(s, { email, phone: p.phones[0]!.number });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ optOutRequested: { sent: true } });
    const token = await mailedToken(s, email);
    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(200);
    expect(Date.parse(confirmed.json().optOutConfirmed.confirmedAt)).toBeGreaterThan(Date.now() - 60_000);

    expect(await foundEverywhere(p)).toEqual({
      getEmail: 0,
      getMd5: 0,
      getSha256: 0,
      getPhone: 0,
      getId: 0,
      getPii: 0,
      post: 0,
      put: 0,
    });
    // The requester is told; the request and its confirmation are on record, without the address.
    const mails = await mailsTo(s, email);
    expect(mails.map((m) => m.headers.get('subject'))).toEqual([
      'Confirm your Tessera opt-out request',
      'Your Tessera opt-out request is confirmed',
    ]);
    const [req] = await s.t.database.query<{
      email: string | null;
      phone: string | null;
      confirmed_at: Date | null;
      suppressed: number;
      id: string;
    }>('select id::text, email, phone, confirmed_at, suppressed from opt_out_requests where token_hash = $1', [
      hashToken(token),
    ]);
    expect(req).toMatchObject({ email: null, phone: null, suppressed: 3 });
    expect(req!.confirmed_at).not.toBeNull();
    // Staff find it by the address: its hash, the phone and the person, each from the request.
    const listed = Object.values(
      (await s.api.get(`/v2/suppressions?value=${encodeURIComponent(email)}`, s.staff)).json().suppressions,
    );
    expect(listed).toEqual([
      expect.objectContaining({ kind: 'sha256', value: sha256(email), source: 'request', requestId: Number(req!.id) }),
    ]);
    const byId = Object.values((await s.api.get(`/v2/suppressions?identityId=${p.id}`, s.staff)).json().suppressions);
    expect(byId).toEqual([expect.objectContaining({ kind: 'identity', value: String(p.id), source: 'request' })]);
    // The link works once.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(STEWARDSHIP_MESSAGES.optOutLink);
  });

  it('suppresses the values but no person when the address is held by two people', async () => {
    const email = uniqueEmail();
    const a = person({ zip: uniqueZip() });
    const b = person({ zip: uniqueZip() });
    a.emails = [{ ...a.emails[0]!, address: email }];
    b.emails = [{ ...b.emails[0]!, address: email }];
    await load(s.t.database, a, b);
    expect((await requestOptOut(s, { email })).statusCode).toBe(202);
    expect((await confirm(await mailedToken(s, email))).statusCode).toBe(200);
    const kinds = Object.values((await s.api.get(`/v2/suppressions?identityId=${a.id}`, s.staff)).json().suppressions);
    expect(kinds).toEqual([]);
    expect((await s.api.get(`/v2/identities/byEmail?email=${email}`, s.customer)).json().identities).toEqual([]);
    // Found another way, each is still there (without the address).
    const byId = (await s.api.get(`/v2/identities/byId?id=${a.id}`, s.customer)).json().identities;
    expect(byId).toHaveLength(1);
    expect(JSON.stringify(byId)).not.toContain(email);
  });

  it('an unknown, expired or malformed link: 400, nothing suppressed', async () => {
    const email = uniqueEmail();
    expect((await requestOptOut(s, { email })).statusCode).toBe(202);
    const token = await mailedToken(s, email);
    await s.t.database.query(
      "update opt_out_requests set expires_at = now() - interval '1 second' where token_hash = $1",
      [hashToken(token)],
    );
    expect((await confirm(token)).json().error).toBe(STEWARDSHIP_MESSAGES.optOutLink);
    expect((await confirm('not-a-token')).statusCode).toBe(400);
    const empty = await s.t.app.inject({
      method: 'POST',
      url: '/v2/opt-out/confirm',
      headers: CONSOLE_HEADERS,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(Object.values((await s.api.get(`/v2/suppressions?value=${email}`, s.staff)).json().suppressions)).toEqual(
      [],
    );
  });
});

describe('POST /v2/opt-out reveals nothing about the graph', () => {
  it('answers and mails alike for an address in the graph and one that is not', async () => {
    const known = person({ zip: uniqueZip() });
    await load(s.t.database, known);
    const inGraph = known.emails[0]!.address;
    const notInGraph = uniqueEmail();
    const a = await requestOptOut(s, { email: inGraph });
    const b = await requestOptOut(s, { email: notInGraph });
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(a.body).toBe(b.body);
    expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
    const [mailA] = await mailsTo(s, inGraph);
    const [mailB] = await mailsTo(s, notInGraph);
    const strip = (text: string) => text.replace(/#opt-out=\S+/, '#opt-out=TOKEN');
    expect(strip(mailA!.text)).toBe(strip(mailB!.text));
    expect(mailA!.headers.get('subject')).toBe(mailB!.headers.get('subject'));
  });

  it('400 names each bad field', async () => {
    const res = await requestOptOut(s, { email: 'nope', phone: 'call me' });
    expect(res.statusCode).toBe(400);
    const fields = Object.fromEntries(
      (res.json().fields as { path: string; message: string }[]).map((f) => [f.path, f.message]),
    );
    expect(fields).toEqual({ 'body.email': MESSAGES.email, 'body.phone': CONTACT_MESSAGES.phone });
    expect((await requestOptOut(s, { email: uniqueEmail(), extra: 'x' })).statusCode).toBe(400);
  });

  it('429 with Retry-After per address and per client IP', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < OPT_OUT_THROTTLE.perAddress.limit; i++)
      expect((await requestOptOut(s, { email })).statusCode).toBe(202);
    const refused = await requestOptOut(s, { email });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const ip = '198.18.0.7';
    for (let i = 0; i < OPT_OUT_THROTTLE.perIp.limit; i++) {
      expect((await requestOptOut(s, { email: uniqueEmail() }, ip)).statusCode).toBe(202);
    }
    expect((await requestOptOut(s, { email: uniqueEmail() }, ip)).statusCode).toBe(429);
  });

  it('logs no address', async () => {
    const email = uniqueEmail();
    await requestOptOut(s, { email });
    await mailsTo(s, email);
    expect(s.t.logs.join('\n')).not.toContain(email);
  });
});
