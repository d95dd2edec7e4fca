/**
 * For tests: a real OpenID provider (oidc-provider) on 127.0.0.1 with one client per Tessera provider id, PKCE
 * required, people whose claims each test sets, and a minimal login/consent interaction a test drives over HTTP
 * (`?as={sub}` or `?deny=1` on the interaction URL) or a real browser drives through a small login page listing
 * the people. Also a cookie-keeping "browser" that goes through the whole redirect flow between Tessera (inject)
 * and it. The browser tests (e2e/) start this issuer beside a real server process.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderId } from '@tessera/common/providers';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import Provider, { type AccountClaims, type InteractionDetails } from 'oidc-provider';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/harness';
import { redirectUri } from './service';

/** What the provider says about a person; `sub` is the key. Leave a claim out to have the provider omit it. */
export type Person = Partial<AccountClaims> & { email?: string; email_verified?: boolean | string; name?: string };

export interface TestIssuer {
  /** The issuer URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Registers a person at the provider and returns their subject. */
  person(claims: Person): string;
  /** OAUTH_* variables configuring these Tessera providers as clients of this issuer. */
  env(ids: ProviderId[]): Record<string, string>;
  close(): Promise<void>;
}

const clientId = (id: ProviderId) => `tessera-${id}`;
const clientSecret = (id: ProviderId) => `secret-${id}-0123456789abcdef`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The provider's own sign-in page, for a real browser: a link per registered person ("Continue as …") and a
 * "Cancel" link, both back to this interaction with `?as=` or `?deny=1`, as a test over HTTP would add them.
 */
function loginPage(res: ServerResponse, interactionPath: string, people: Map<string, Person>): void {
  const link = (query: string, text: string) =>
    `<a href="${escapeHtml(`${interactionPath}?${query}`)}">${escapeHtml(text)}</a>`;
  const choices = [...people].map(
    ([sub, person]) => `<li>${link(`as=${encodeURIComponent(sub)}`, `Continue as ${person.email ?? sub}`)}</li>`,
  );
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider - Sign in</title></head>
<body><h1>Sign in to the test provider</h1><ul>${choices.join('')}</ul><p>${link('deny=1', 'Cancel')}</p></body></html>`,
  );
}

async function interact(
  provider: Provider,
  people: Map<string, Person>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const query = url.searchParams;
  const details: InteractionDetails = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login' && !query.has('as') && !query.has('deny')) {
    return loginPage(res, url.pathname, people);
  }
  if (query.has('deny')) {
    const denied = { error: 'access_denied', error_description: 'The person refused.' };
    return provider.interactionFinished(req, res, denied, { mergeWithLastSubmission: false });
  }
  if (details.prompt.name === 'login') {
    const login = { accountId: query.get('as') ?? '' };
    return provider.interactionFinished(req, res, { login }, { mergeWithLastSubmission: false });
  }
  const grant =
    (details.grantId && (await provider.Grant.find(details.grantId))) ||
    new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  const scopes = details.prompt.details.missingOIDCScope as string[] | undefined;
  const claims = details.prompt.details.missingOIDCClaims as string[] | undefined;
  if (scopes) grant.addOIDCScope(scopes.join(' '));
  if (claims) grant.addOIDCClaims(claims);
  return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
}

export async function startTestIssuer(options: { publicUrl: URL; ids: ProviderId[] }): Promise<TestIssuer> {
  const people = new Map<string, Person>();
  let provider: Provider | undefined;
  const server: Server = createServer((req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, people, req, res).catch((err: Error) => res.writeHead(500).end(err.message));
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  provider = new Provider(url, {
    clients: options.ids.map((id) => ({
      client_id: clientId(id),
      client_secret: clientSecret(id),
      redirect_uris: [redirectUri(options.publicUrl, id)],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    // xms_edov: Microsoft's optional claim saying the address's domain owner verified it (it sends no email_verified).
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    cookies: { keys: ['test-issuer-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    findAccount: (_ctx, id) => {
      const person = people.get(id);
      return person && { accountId: id, claims: () => ({ ...person, sub: id }) };
    },
  });

  return {
    url,
    person(claims) {
      const sub = typeof claims.sub === 'string' ? claims.sub : randomUUID();
      people.set(sub, claims);
      return sub;
    },
    env(ids) {
      return Object.fromEntries(
        ids.flatMap((id) => {
          const prefix = `OAUTH_${id.toUpperCase()}_`;
          return [
            [`${prefix}CLIENT_ID`, clientId(id)],
            [`${prefix}CLIENT_SECRET`, clientSecret(id)],
            [`${prefix}ISSUER`, url],
          ];
        }),
      );
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Cookies of one site, by name (paths are ignored: the tests only visit paths the cookies are meant for). */
class Jar extends Map<string, string> {
  header(): string {
    return [...this].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** One browser: a cookie jar for Tessera and one for the provider, following redirects between them by hand. */
export class TestBrowser {
  readonly tessera = new Jar();
  readonly provider = new Jar();

  constructor(
    private readonly app: FastifyInstance,
    private readonly publicUrl: URL,
  ) {}

  /** A GET to Tessera, keeping the cookies it sets and dropping those it clears. */
  async visit(path: string): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({ method: 'GET', url: path, cookies: Object.fromEntries(this.tessera) });
    for (const c of res.cookies) {
      const cleared = c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() < Date.now());
      if (cleared) this.tessera.delete(c.name);
      else this.tessera.set(c.name, c.value);
    }
    return res;
  }

  /**
   * Follows the provider's redirects from `location` through login (as `sub`) and consent, or a refusal, until
   * the provider sends the browser back to Tessera; returns that callback URL without visiting it.
   */
  async atProvider(location: string, act: { as: string } | { deny: true }): Promise<URL> {
    let next = new URL(location);
    for (let hop = 0; hop < 12; hop++) {
      if (next.origin === this.publicUrl.origin) return next;
      if (next.pathname.startsWith('/interaction/')) {
        if ('as' in act) next.searchParams.set('as', act.as);
        else next.searchParams.set('deny', '1');
      }
      const res = await fetch(next, { redirect: 'manual', headers: { cookie: this.provider.header() } });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.provider.delete(name);
        else this.provider.set(name, value);
      }
      const to = res.headers.get('location');
      if (!to) throw new Error(`the provider answered ${res.status} at ${next.pathname}: ${await res.text()}`);
      next = new URL(to, next);
    }
    throw new Error('too many redirects at the provider');
  }

  /** The whole flow: /oauth/{id} -> provider -> the callback; returns Tessera's answer to the callback. */
  async signIn(id: ProviderId, act: { as: string } | { deny: true }): Promise<LightMyRequestResponse> {
    const start = await this.visit(`/oauth/${id}`);
    if (start.statusCode !== 302) throw new Error(`/oauth/${id} answered ${start.statusCode}`);
    const callback = await this.atProvider(String(start.headers.location), act);
    return this.visit(callback.pathname + callback.search);
  }
}

/**
 * A spec file's outside sign-in fixture: a local issuer for `ids` and a Tessera app configured for it, started
 * before the file's tests and closed after them. Read `t` and `issuer` inside tests.
 */
export function useOauthTestApp(ids: ProviderId[]) {
  const publicUrl = new URL(TEST_PUBLIC_URL);
  const fixture = { publicUrl } as { t: TestApp; issuer: TestIssuer; publicUrl: URL };
  beforeAll(async () => {
    fixture.issuer = await startTestIssuer({ publicUrl, ids });
    fixture.t = await buildTestApp({ env: fixture.issuer.env(ids) });
  });
  afterAll(async () => {
    await fixture.t.app.close();
    await fixture.issuer.close();
  });
  return {
    get t() {
      return fixture.t;
    },
    get issuer() {
      return fixture.issuer;
    },
    publicUrl,
    browser: () => new TestBrowser(fixture.t.app, publicUrl),
    /** The failure reason of a reply that sent the browser back to /login. */
    failureOf(res: { statusCode: number; headers: Record<string, unknown> }): URLSearchParams {
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location), publicUrl);
      expect(location.pathname).toBe('/login');
      return location.searchParams;
    },
  };
}
