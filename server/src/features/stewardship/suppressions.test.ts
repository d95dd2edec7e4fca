/**
 * The suppression list by API (issue 22 item 2), super+: search by value, add (201, 409), lift with a reason
 * (audited; the person is found again), import a list with duplicates, bad lines and hashes (counts exact; a list
 * that cannot be read imports nothing); 400, 401, 403 and 404.
 */
import { STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import { describe, expect, it } from 'vitest';
import { CONSOLE_HEADERS } from '../../test/harness';
import { load, md5, person, sha256, uniqueEmail, uniquePhone } from '../identities/test-people';
import { stewardshipApp } from './test-setup';

const s = stewardshipApp();

const importList = (body: string, cookie = s.staff, type = 'text/plain') =>
  s.t.app.inject({
    method: 'POST',
    url: '/v2/suppressions/import',
    headers: { ...CONSOLE_HEADERS, cookie, 'content-type': type },
    payload: body,
  });
const lift = (id: number, payload: unknown, cookie = s.staff) =>
  s.t.app.inject({
    method: 'DELETE',
    url: `/v2/suppressions/${id}`,
    headers: { ...CONSOLE_HEADERS, cookie },
    payload: payload as object,
  });
const search = async (q: string) =>
  Object.values((await s.api.get(`/v2/suppressions?${q}`, s.staff)).json().suppressions) as {
    id: number;
    kind: string;
    value: string;
    source: string;
    createdBy: number | null;
  }[];
const found = async (email: string) =>
  (await s.api.get(`/v2/identities/byEmail?email=${email}`, s.customer)).json().identities.length;

describe('POST, GET and DELETE /v2/suppressions', () => {
  it('adds an address as its hash, finds it by any form of it, and lifting it (with a reason, audited) brings the person back', async () => {
    const p = person();
    await load(s.t.database, p);
    const email = p.emails[0]!.address;
    const added = await s.api.post('/v2/suppressions', s.staff, { value: ` ${email.toUpperCase()} ` });
    expect(added.statusCode).toBe(201);
    const [row] = Object.values(added.json().suppressions) as { id: number }[];
    expect(row).toMatchObject({ kind: 'sha256', value: sha256(email), source: 'staff', createdBy: expect.any(Number) });
    expect(await found(email)).toBe(0);
    for (const q of [`value=${encodeURIComponent(email)}`, `value=${sha256(email).toUpperCase()}`]) {
      expect((await search(q)).map((r) => r.id)).toEqual([row!.id]);
    }
    // An MD5 cannot be turned into the SHA-256 stored: it finds rows stored as MD5 only.
    expect(await search(`value=${md5(email)}`)).toEqual([]);
    const again = await s.api.post('/v2/suppressions', s.staff, { value: sha256(email) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(STEWARDSHIP_MESSAGES.exists);

    const noReason = await lift(row!.id, { reason: '   ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toEqual([{ path: 'body.reason', message: STEWARDSHIP_MESSAGES.reason }]);
    const lifted = await lift(row!.id, { reason: 'Added by mistake (ticket 42)' });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().suppressions[row!.id].deletedAt).toEqual(expect.any(String));
    expect(await found(email)).toBe(1);
    const [entry] = await s.t.database.query<{ action: string; detail: Record<string, unknown>; actor_id: number }>(
      "select action, detail, actor_id from audit_log where action = 'suppression.lift' and target_id = $1",
      [String(row!.id)],
    );
    expect(entry).toMatchObject({
      action: 'suppression.lift',
      detail: { kind: 'sha256', source: 'staff', reason: 'Added by mistake (ticket 42)' },
    });
    expect(entry!.actor_id).toBeGreaterThan(0);
    expect((await lift(row!.id, { reason: 'again' })).statusCode).toBe(404);
  });

  it('a phone is shown by its last four digits; an identity is added by id', async () => {
    const phone = uniquePhone();
    const res = await s.api.post('/v2/suppressions', s.staff, { value: phone });
    expect(Object.values(res.json().suppressions)).toEqual([
      expect.objectContaining({ kind: 'phone', value: `•••${phone.slice(-4)}` }),
    ]);
    expect((await search(`value=${encodeURIComponent(phone)}`)).length).toBe(1);
    const p = person();
    await load(s.t.database, p);
    expect((await s.api.post('/v2/suppressions', s.staff, { identityId: p.id })).statusCode).toBe(201);
    expect((await s.api.get(`/v2/identities/byId?id=${p.id}`, s.customer)).json().identities).toEqual([]);
  });

  it('lists newest first, a page at a time', async () => {
    const first = await search('');
    expect(first.length).toBeGreaterThan(0);
    // A keyed reply: the console orders it; the page is the newest ones.
    const ids = first.map((r) => r.id).sort((a, b) => b - a);
    const [top] = await s.t.database.query<{ max: string }>('select max(id)::text as max from suppressions');
    expect(ids[0]).toBe(Number(top!.max));
    const oldest = ids.at(-1)!;
    const older = await search(`before=${oldest}`);
    expect(older.every((r) => r.id < oldest)).toBe(true);
  });

  it('400 for a value that is none of the kinds, 401 signed out, 403 below super, 404 unknown', async () => {
    const bad = await s.api.post('/v2/suppressions', s.staff, { value: 'hello' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([{ path: 'body.value', message: STEWARDSHIP_MESSAGES.value }]);
    expect((await s.api.post('/v2/suppressions', s.staff, {})).statusCode).toBe(400);
    expect((await s.api.get('/v2/suppressions?value=hello', s.staff)).statusCode).toBe(400);
    expect((await s.api.get('/v2/suppressions', '')).statusCode).toBe(401);
    const forbidden = await s.api.get('/v2/suppressions', s.admin);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe(STEWARDSHIP_MESSAGES.forbidden);
    expect((await s.api.post('/v2/suppressions', s.admin, { value: uniqueEmail() })).statusCode).toBe(403);
    expect((await lift(1, { reason: 'x' }, s.admin)).statusCode).toBe(403);
    expect((await importList('a@b.example', s.admin)).statusCode).toBe(403);
    expect((await lift(9_000_000_000, { reason: 'x' })).statusCode).toBe(404);
    expect((await lift(Number.NaN, { reason: 'x' })).statusCode).toBe(400);
  });
});

describe('POST /v2/suppressions/import', () => {
  it('reports added, already present, people matched and bad lines exactly', async () => {
    const a = person();
    const b = person();
    const c = person();
    await load(s.t.database, a, b, c);
    const alreadyThere = uniqueEmail();
    await s.api.post('/v2/suppressions', s.staff, { value: alreadyThere });
    const list = [
      a.emails[0]!.address, // 2: a, added
      a.emails[0]!.address.toUpperCase(), // 3: duplicate of 2
      sha256(a.emails[0]!.address), // 4: the same as 2, as stored
      md5(b.emails[0]!.address), // 5: b, added
      c.phones[0]!.number, // 6: c, added
      'not a value', // 7: bad
      alreadyThere, // 8: already present
      '', // blank: skipped, not a line
      'deadbeef', // 10: bad (no hash length)
      uniqueEmail(), // 11: nobody's, added
    ];
    const res = await importList(`value\n${list.join('\n')}\n`, s.staff, 'text/csv');
    expect(res.statusCode).toBe(200);
    expect(res.json().suppressionImport).toEqual({
      lines: 9,
      added: 4,
      alreadyPresent: 3,
      peopleMatched: 3,
      badLines: 2,
      badLineNumbers: [7, 10],
    });
    for (const p of [a, b]) expect(await found(p.emails[0]!.address)).toBe(0);
    expect((await search(`value=${b.emails[0]!.address}`))[0]).toMatchObject({ kind: 'md5', source: 'import' });
    const [entry] = await s.t.database.query<{ detail: Record<string, unknown> }>(
      "select detail from audit_log where action = 'suppression.import' order by id desc limit 1",
    );
    expect(entry!.detail).toMatchObject({ added: 4, badLines: 2 });
  });

  it('a list that cannot be read imports nothing (one transaction)', async () => {
    const first = uniqueEmail();
    const body = `${first}\n${'x'.repeat(5)}\n"unclosed,${uniqueEmail()}\n`;
    const res = await importList(body, s.staff, 'text/csv');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^The list could not be read at line \d+/);
    expect(await search(`value=${first}`)).toEqual([]);
  });

  it('a large list in batches, and 400 for a body that is no list', async () => {
    const emails = Array.from({ length: 1200 }, () => uniqueEmail());
    const res = await importList(emails.join('\r\n'));
    expect(res.json().suppressionImport).toMatchObject({ lines: 1200, added: 1200, alreadyPresent: 0, badLines: 0 });
    const json = await s.api.post('/v2/suppressions/import', s.staff, { values: ['a@b.example'] });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe(STEWARDSHIP_MESSAGES.importBody);
  });
});
