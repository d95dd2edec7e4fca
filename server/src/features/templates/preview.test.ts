/**
 * POST /v2/templates/preview: an unsaved expression rendered through the sandbox, on a synthetic identity (free) or
 * on a real one looked up as byId (metered and priced as a lookup).
 */
import { TEMPLATE_PREVIEW_USAGE_PATH } from '@tessera/common/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';

let t: TestApp;
let cookie: string;
let unpaidCookie: string;
const api = consoleClient(() => t.app);
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
  unpaidCookie = await signIn(
    t.app,
    (await makeUser(t.database, 'user', (await makeOrganization(t.database)).id)).email,
  );
  await load(t.database, p);
});
afterAll(() => t.app.close());

const usageOf = (requestId: unknown) =>
  t.database.query<{ path: string; identities: number }>('select path, identities from usage where request_id = $1', [
    requestId,
  ]);

describe('POST /v2/templates/preview', () => {
  it('renders JSON on the synthetic identity, unmetered', async () => {
    const res = await api.post('/v2/templates/preview', cookie, {
      expression: '{"name": firstName & " " & lastName, "emails": emails.address}',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preview).toEqual({
      format: 'json',
      identities: [{ score: 100, matchedOn: ['id'], name: 'Ada Lovelace', emails: 'ada@example.com' }],
      csv: null,
      metered: false,
    });
    expect(await usageOf(res.headers['x-request-id'])).toEqual([]);
  });

  it('renders CSV with the template columns', async () => {
    const res = await api.post('/v2/templates/preview', cookie, { expression: '{"city": city}', format: 'csv' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preview.csv).toBe('score,matchedOn,city\r\n100,id,Springfield\r\n');
  });

  it('renders a real identity by id, metered and priced as a byId lookup, under the preview path', async () => {
    const res = await api.post('/v2/templates/preview', cookie, {
      expression: '{"last": lastName}',
      sample: { identityId: String(p.id) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preview).toMatchObject({ metered: true, identities: [{ last: p.lastName }] });
    // Issue 32: listed in usage as what it is, not as a byId lookup the caller never made.
    expect(await usageOf(res.headers['x-request-id'])).toEqual([{ path: TEMPLATE_PREVIEW_USAGE_PATH, identities: 1 }]);
  });

  it('scores the synthetic identity on the 0-100 scale of real matches, as an id match scores (issue 32)', async () => {
    const expression = '{"last": lastName}';
    const synthetic = await api.post('/v2/templates/preview', cookie, { expression });
    const real = await api.post('/v2/templates/preview', cookie, { expression, sample: { identityId: String(p.id) } });
    const lookedUp = await api.get(`/v2/identities/byId?id=${p.id}`, cookie);
    expect(lookedUp.statusCode, lookedUp.body).toBe(200);
    const scoreOf = (body: { identities: { score: number }[] }) => body.identities[0]!.score;
    expect(scoreOf(synthetic.json().preview)).toBe(100);
    expect(scoreOf(real.json().preview)).toBe(scoreOf(synthetic.json().preview));
    expect(scoreOf(lookedUp.json())).toBe(scoreOf(synthetic.json().preview));
  });

  it('402 for a real identity without a contract; the synthetic one still renders', async () => {
    const real = await api.post('/v2/templates/preview', unpaidCookie, {
      expression: '{"last": lastName}',
      sample: { identityId: String(p.id) },
    });
    expect(real.statusCode).toBe(402);
    const synthetic = await api.post('/v2/templates/preview', unpaidCookie, { expression: '{"last": lastName}' });
    expect(synthetic.statusCode).toBe(200);
  });

  it('400 for a syntax error with its line and column, a bad format, or a bad identity id', async () => {
    const bad = await api.post('/v2/templates/preview', cookie, { expression: '{\n  "a": (1 +\n}' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0]).toMatchObject({ path: 'body.expression', line: 3, column: 1 });
    const format = await api.post('/v2/templates/preview', cookie, { expression: '$', format: 'xml' });
    expect(format.statusCode).toBe(400);
    expect(format.json().fields[0].path).toBe('body.format');
    const nul = await api.post('/v2/templates/preview', cookie, { expression: '"\u0000"' });
    expect(nul.json().fields[0].path).toBe('body.expression');
    const id = await api.post('/v2/templates/preview', cookie, { expression: '$', sample: { identityId: 'x y' } });
    expect(id.statusCode).toBe(400);
  });

  it('422 when the expression fails on the record, within the sandbox limits', async () => {
    const res = await api.post('/v2/templates/preview', cookie, { expression: '$error("nope")' });
    expect(res.statusCode).toBe(422);
  });

  it('a real preview failing on its record is metered under the preview path too', async () => {
    const res = await api.post('/v2/templates/preview', cookie, {
      expression: '$error("nope")',
      sample: { identityId: String(p.id) },
    });
    expect(res.statusCode).toBe(422);
    expect(await usageOf(res.headers['x-request-id'])).toEqual([{ path: TEMPLATE_PREVIEW_USAGE_PATH, identities: 1 }]);
  });
});
