import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAttempts } from '../../db/schema';
import { makeOrganization } from '../../test/harness';
import { hashToken } from '../sessions/tokens';
import { countUsers } from '../users/repo';
import { TestBrowser, useOauthTestApp } from './test-issuer';

const fx = useOauthTestApp(['google', 'github']);
const { publicUrl } = fx;

/** A person the provider vouches for, whose address Tessera does not know and no organization accepts. */
const stranger = () => fx.issuer.person({ email: `x-${randomUUID()}@nowhere.example`, email_verified: true });

/** A browser that went to the provider and is about to come back: the callback URL, not yet visited. */
async function cameBack(sub = stranger()) {
  const b = new TestBrowser(fx.t.app, publicUrl);
  const start = await b.visit('/oauth/google');
  const callback = await b.atProvider(String(start.headers.location), { as: sub });
  return { b, callback, attemptId: b.tessera.get('tessera_oauth')! };
}

const failure = (res: { statusCode: number; headers: Record<string, unknown> }) => fx.failureOf(res).get('failure');

const path = (url: URL) => url.pathname + url.search;
const userCount = () => countUsers(fx.t.database.db);

describe('GET /oauth/{provider}/callback refuses', () => {
  it('a changed state, and spends the attempt', async () => {
    const { b, callback } = await cameBack();
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'attacker-chosen-state');
    expect(failure(await b.visit(path(tampered)))).toBe('failed');
    expect(b.tessera.has('tessera_oauth')).toBe(false);
  });

  it('a callback without the attempt cookie (another browser, or a forged link)', async () => {
    const { callback } = await cameBack();
    const other = new TestBrowser(fx.t.app, publicUrl);
    expect(failure(await other.visit(path(callback)))).toBe('expired');
  });

  it('a replayed attempt, even when the first use succeeded', async () => {
    const org = `ok${randomUUID().slice(0, 8)}.example`;
    await makeOrganization(fx.t.database, 'Replay', { emailDomain: org, acceptUsers: true });
    const { b, callback, attemptId } = await cameBack(fx.issuer.person({ email: `r@${org}`, email_verified: true }));
    const first = await b.visit(path(callback));
    expect(first.headers.location).toBe('/terms'); // a newcomer, on to the agreement
    const attacker = new TestBrowser(fx.t.app, publicUrl); // who copied the cookie and the URL
    attacker.tessera.set('tessera_oauth', attemptId);
    const replay = await attacker.visit(path(callback));
    expect(failure(replay)).toBe('expired');
    expect(replay.cookies.find((c) => c.name === 'tessera_session')).toBeUndefined();
  });

  it('an attempt older than 10 minutes', async () => {
    const { b, callback, attemptId } = await cameBack();
    await fx.t.database.db.execute(
      sql`update ${oauthAttempts} set expires_at = now() - interval '1 second' where id_hash = ${hashToken(attemptId)}`,
    );
    expect(failure(await b.visit(path(callback)))).toBe('expired');
  });

  it("one provider's answer delivered to another provider's callback", async () => {
    const { b, callback } = await cameBack();
    const before = await userCount();
    const res = await b.visit(`/oauth/github/callback${callback.search}`);
    expect(failure(res)).toBe('failed');
    expect(new URL(String(res.headers.location), publicUrl).searchParams.get('provider')).toBe('github');
    expect(await userCount()).toBe(before);
  });

  it('a code that was not issued for this attempt (a second attempt with the first code)', async () => {
    const first = await cameBack();
    const second = new TestBrowser(fx.t.app, publicUrl);
    const start = await second.visit('/oauth/google');
    const state = new URL(String(start.headers.location)).searchParams.get('state')!;
    const swapped = new URL(first.callback);
    swapped.searchParams.set('state', state); // the state matches; the PKCE verifier and nonce do not
    expect(failure(await second.visit(path(swapped)))).toBe('failed');
  });

  it('a refusal at the provider, as a cancelled sign-in', async () => {
    const b = new TestBrowser(fx.t.app, publicUrl);
    const start = await b.visit('/oauth/google');
    const callback = await b.atProvider(String(start.headers.location), { deny: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(failure(await b.visit(path(callback)))).toBe('denied');
  });

  it('garbage and repeated parameters, without a 500', async () => {
    const { b, attemptId } = await cameBack();
    const res = await b.visit('/oauth/google/callback?code=a&code=b&state[x]=1&iss=%ZZ');
    expect(failure(res)).toBe('failed');
    b.tessera.set('tessera_oauth', attemptId);
    expect(failure(await b.visit('/oauth/google/callback'))).toBe('expired');
  });
});
