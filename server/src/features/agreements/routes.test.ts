/**
 * Agreement versions by outcome (issue 18 item 5): super+ publish (201, sanitised), list versions with their
 * acceptance counts and who accepted one (200); bad input is 400 naming the field; below super 403, signed out 401,
 * an unknown version 404. Publishing sends everyone, the publisher too, back through the 451 gate.
 */
import { AGREEMENT_LIMITS, AGREEMENT_MESSAGES } from '@tessera/common/contact';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { consoleClient } from '../../test/console-client';
import { type ScratchDatabase, scratchDatabase } from '../../test/databases';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { sanitizeAgreement } from './sanitize';

let t: TestApp;
let scratch: ScratchDatabase | null = null;
const api = consoleClient(() => t.app);
// Publishing sends every user of a database back through the gate: these tests get a database of their own, so
// the test files running beside them (which share the worker's or the run's database) never meet a new version.
beforeAll(async () => {
  const base = process.env.TEST_DATABASE_URL;
  scratch = process.env.TEST_ENGINE === 'postgres' && base ? await scratchDatabase(base, 'agreements') : null;
  const database = await openDatabase({ url: scratch?.url ?? null, dataDir: null, poolSize: 2 });
  await migrate(database);
  t = await buildTestApp({ database });
});
afterAll(async () => {
  await t.app.close();
  await t.database.close();
  await scratch?.drop();
});

/** A super user who has accepted the current agreement, signed in. */
async function staff() {
  const user = await makeUser(t.database, 'super');
  return { user, cookie: await signIn(t.app, user.email) };
}

async function accept(cookie: string): Promise<string> {
  const { ndaId } = (await api.get('/v2/terms', cookie)).json();
  const res = await api.post('/v2/terms/accept', cookie, { ndaId });
  expect(res.statusCode).toBe(200);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

describe('sanitising on save', () => {
  it('removes script tags, event handlers and javascript: links, and keeps the text and safe markup', () => {
    const html = sanitizeAgreement(
      '<h2 onclick="alert(1)">Terms</h2><script>alert("x")</script><p onmouseover="steal()">Read <a href="javascript:alert(1)">this</a>' +
        ' and <a href="https://example.com/x">that</a>.</p><img src=x onerror="alert(1)"><iframe src="https://evil.test"></iframe>' +
        '<style>body{display:none}</style><a href="JaVaScRiPt:alert(1)">again</a><a href="data:text/html,hi">data</a>',
    );
    expect(html).not.toMatch(/script|onclick|onmouseover|onerror|iframe|<img|<style|display:none|data:/i);
    expect(html).toContain('<h2>Terms</h2>');
    expect(html).toContain('<a href="https://example.com/x" rel="noopener noreferrer">that</a>');
    expect(html).toContain('<a>this</a>');
  });
});

describe('POST /v2/terms/versions', () => {
  it('201: publishes the sanitised version, and every user (the publisher too) must accept it', async () => {
    const publisher = await staff();
    const user = await makeUser(t.database, 'user');
    const userCookie = await signIn(t.app, user.email);
    expect((await api.get('/v2/version', userCookie)).statusCode).toBe(200);

    const res = await api.post('/v2/terms/versions', publisher.cookie, {
      html: '<h2>Tessera Terms of Use</h2><p>Version <b>three</b>.</p><script>alert(1)</script><p onclick="x()">End.</p>',
    });
    expect(res.statusCode).toBe(201);
    const { id, body } = res.json().agreementVersion;
    expect(body).toBe('<h2>Tessera Terms of Use</h2><p>Version <b>three</b>.</p><p>End.</p>');

    // The user is a signer at once: 451 for everything but the terms, which now serve the new version.
    expect((await api.get('/v2/self', userCookie)).json().self.role).toBe('signer');
    expect((await api.get('/v2/version', userCookie)).statusCode).toBe(451);
    const terms = (await api.get('/v2/terms', userCookie)).json();
    expect(terms).toEqual({ nda: body, ndaId: id, ndaAcceptedAt: null });
    const accepted = await accept(userCookie);
    expect((await api.get('/v2/self', accepted)).json().self.role).toBe('user');

    // So is the publisher, who reaches the versions again after accepting.
    expect((await api.get('/v2/terms/versions', publisher.cookie)).statusCode).toBe(451);
    const again = await accept(publisher.cookie);
    const versions = (await api.get('/v2/terms/versions', again)).json().agreementVersions;
    expect(versions[0]).toMatchObject({ id, current: true, acceptances: 2, length: body.length });
    expect(versions.slice(1).every((v: { current: boolean }) => !v.current)).toBe(true);
  });

  it('400 naming the field: blank, missing, too long, nothing left after sanitising', async () => {
    const { cookie } = await staff();
    const blank = await api.post('/v2/terms/versions', cookie, { html: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual([{ path: 'body.html', message: MESSAGES.required('the agreement text') }]);
    expect((await api.post('/v2/terms/versions', cookie, {})).json().fields[0].path).toBe('body.html');
    const long = await api.post('/v2/terms/versions', cookie, { html: 'x'.repeat(AGREEMENT_LIMITS.html + 1) });
    expect(long.json().fields).toEqual([{ path: 'body.html', message: AGREEMENT_MESSAGES.htmlTooLong }]);
    const empty = await api.post('/v2/terms/versions', cookie, { html: '<script>alert(1)</script><img src=x>' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual([{ path: 'body.html', message: AGREEMENT_MESSAGES.empty }]);
    // Nothing was published: this super user is still past the gate.
    expect((await api.get('/v2/terms/versions', cookie)).statusCode).toBe(200);
  });

  it('403 below super, 401 signed out; nothing is published', async () => {
    const admin = await signIn(t.app, (await makeUser(t.database, 'admin')).email);
    const refused = await api.post('/v2/terms/versions', admin, { html: '<p>Mine.</p>' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(AGREEMENT_MESSAGES.forbidden);
    expect((await api.get('/v2/terms/versions', admin)).statusCode).toBe(403);
    expect((await api.get('/v2/terms/versions/1/acceptances', admin)).statusCode).toBe(403);
    expect((await api.post('/v2/terms/versions', '', { html: '<p>Mine.</p>' })).statusCode).toBe(401);
    expect((await api.get('/v2/terms/versions', '')).statusCode).toBe(401);
    expect((await api.get('/v2/self', admin)).json().self.role).toBe('admin');
  });
});

describe('GET /v2/terms/versions/{id}/acceptances', () => {
  it('200: the count and the list of who accepted, newest first', async () => {
    const publisher = await staff();
    const published = await api.post('/v2/terms/versions', publisher.cookie, { html: '<p>Version four.</p>' });
    const { id } = published.json().agreementVersion;
    const cookie = await accept(publisher.cookie);
    const other = await makeUser(t.database, 'user');
    await accept(await signIn(t.app, other.email));

    const res = await api.get(`/v2/terms/versions/${id}/acceptances`, cookie);
    expect(res.statusCode).toBe(200);
    const { agreementAcceptances } = res.json();
    expect(agreementAcceptances.agreementId).toBe(id);
    expect(agreementAcceptances.total).toBe(2);
    expect(agreementAcceptances.acceptances.map((a: { userId: number }) => a.userId)).toEqual([
      other.id,
      publisher.user.id,
    ]);
    expect(agreementAcceptances.acceptances[0]).toMatchObject({ email: other.email, acceptedAt: expect.any(String) });
    const one = await api.get(`/v2/terms/versions/${id}`, cookie);
    expect(one.json().agreementVersion).toEqual({ id, body: '<p>Version four.</p>' });
  });

  it('404 for an unknown version, 400 for a malformed id', async () => {
    const { cookie } = await staff();
    const missing = await api.get('/v2/terms/versions/2147483000/acceptances', cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(AGREEMENT_MESSAGES.notFound);
    expect((await api.get('/v2/terms/versions/2147483000', cookie)).statusCode).toBe(404);
    expect((await api.get('/v2/terms/versions/x/acceptances', cookie)).statusCode).toBe(400);
  });
});
