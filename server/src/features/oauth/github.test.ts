/** GitHub sign-in (OAuth 2.0 with PKCE, no OpenID Connect) against a GitHub-shaped server on loopback. */
import { randomUUID } from 'node:crypto';
import { USER_COOKIE } from '@tessera/common/entities';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identities } from '../../db/schema';
import { type GithubAccount, startTestGithub, type TestGithub } from '../../test/github-server';
import { buildTestApp, makeOrganization, makeUser, type TestApp } from '../../test/harness';
import { githubEndpoints } from './github-client';

let t: TestApp;
let github: TestGithub;
beforeAll(async () => {
  github = await startTestGithub();
  t = await buildTestApp({
    env: {
      OAUTH_GITHUB_CLIENT_ID: github.clientId,
      OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret,
      OAUTH_GITHUB_ISSUER: github.url,
    },
  });
});
afterAll(async () => {
  await t.app.close();
  await github.close();
});

let nextId = 1000;
function account(email: string, verified = true): GithubAccount {
  const id = ++nextId;
  return { id, login: `octo${id}`, name: null, emails: [{ email, primary: true, verified }] };
}

/** One browser through the whole redirect flow: Tessera → GitHub → Tessera's callback. */
async function signInWith(person: GithubAccount | null, tamper?: (callback: URL) => void) {
  github.signInAs(person);
  const start = await t.app.inject({ method: 'GET', url: '/oauth/github' });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  const cookies = Object.fromEntries(start.cookies.map((c) => [c.name, c.value]));
  const atGithub = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(atGithub.headers.get('location')!);
  tamper?.(callback);
  const done = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search, cookies });
  return { authorize, done };
}

const userOf = (res: { cookies: { name: string; value: string }[] }) => {
  const cookie = res.cookies.find((c) => c.name === USER_COOKIE);
  return cookie ? JSON.parse(decodeURIComponent(cookie.value)) : null;
};
const failureOf = (res: { headers: Record<string, unknown> }) =>
  new URL(res.headers.location as string, 'http://x').searchParams.get('failure');

describe('GitHub sign-in', () => {
  it('sends the browser to GitHub with PKCE and state but no OpenID scope or nonce', async () => {
    const org = await makeOrganization(t.database, 'Octo', {
      emailDomain: `${randomUUID().slice(0, 8)}.example`,
      acceptUsers: true,
    });
    const { authorize } = await signInWith(account(`a@${org.emailDomain}`));
    expect(authorize.origin + authorize.pathname).toBe(githubEndpoints(new URL(github.url)).authorization);
    const q = authorize.searchParams;
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeNull();
    expect(q.get('scope')).toBe('read:user user:email');
    expect(github.tokenRequests.at(-1)?.get('code_verifier')).toBeTruthy();
  });

  it('signs up a new person of an accepting domain, keyed by the numeric account id', async () => {
    const org = await makeOrganization(t.database, 'Octo', {
      emailDomain: `${randomUUID().slice(0, 8)}.example`,
      acceptUsers: true,
    });
    const person = { ...account(`mona@${org.emailDomain}`), name: 'Mona Lisa' };
    const { done } = await signInWith(person);
    expect(done.statusCode).toBe(302);
    expect(userOf(done)).toMatchObject({ email: `mona@${org.emailDomain}`, name: 'Mona Lisa', organizationId: org.id });
    const [link] = await t.database.db
      .select()
      .from(identities)
      .where(eq(identities.subject, String(person.id)));
    expect(link).toMatchObject({ provider: 'github', userId: userOf(done).id });
    // The login can change; the account id cannot: a renamed account is the same person.
    const again = await signInWith({ ...person, login: 'renamed' });
    expect(userOf(again.done).id).toBe(userOf(done).id);
  });

  it('links an existing verified account only when GitHub has verified the address', async () => {
    const member = await makeUser(t.database, 'user');
    const unverified = await signInWith(account(member.email, false));
    expect(failureOf(unverified.done)).toBe('unverified');
    const verified = await signInWith(account(member.email.toUpperCase(), true));
    expect(userOf(verified.done)).toMatchObject({ id: member.id });
  });

  it('answers a cancelled sign-in, a forged state and a failed code exchange with the reason on /login', async () => {
    expect(failureOf((await signInWith(null)).done)).toBe('denied');
    const forged = await signInWith(account('x@nowhere.example'), (u) => u.searchParams.set('state', 'forged'));
    expect(failureOf(forged.done)).toBe('failed');
    const badCode = await signInWith(account('x@nowhere.example'), (u) => u.searchParams.set('code', 'wrong'));
    expect(failureOf(badCode.done)).toBe('failed');
  });

  it('says GitHub is unavailable when its API fails on its side', async () => {
    github.failApi(502);
    try {
      expect(failureOf((await signInWith(account('x@nowhere.example'))).done)).toBe('unavailable');
    } finally {
      github.failApi(null);
    }
  });
});
