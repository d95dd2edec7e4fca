/**
 * For tests: a GitHub-shaped OAuth server on 127.0.0.1, speaking GitHub's own protocol as documented for OAuth
 * apps: /login/oauth/authorize (approves at once as the chosen account, or denies), /login/oauth/access_token
 * (checks the client secret, the redirect URI and the PKCE verifier; like GitHub it answers failures with 200
 * and an `error` field), and the REST API under /api/v3 (GitHub Enterprise's layout): /user and /user/emails.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GithubAccount {
  id: number;
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

export interface TestGithub {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The account the next authorization approves as; null makes the person cancel (access_denied). */
  signInAs(account: GithubAccount | null): void;
  /** Makes the REST API answer this status (e.g. 502) until set back to null. */
  failApi(status: number | null): void;
  /** Requests the token endpoint received, for assertions. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

export async function startTestGithub(): Promise<TestGithub> {
  const clientId = 'Iv1.tessera-test';
  const clientSecret = randomBytes(20).toString('hex');
  let current: GithubAccount | null = null;
  const codes = new Map<string, { account: GithubAccount; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, GithubAccount>();
  const tokenRequests: URLSearchParams[] = [];
  let apiFailure: number | null = null;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const q = url.searchParams;
      const redirect = new URL(q.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', q.get('state') ?? '');
      if (q.get('client_id') !== clientId || q.get('code_challenge_method') !== 'S256' || !current) {
        redirect.searchParams.set('error', 'access_denied');
      } else {
        const code = randomBytes(10).toString('hex');
        codes.set(code, {
          account: current,
          challenge: q.get('code_challenge') ?? '',
          redirectUri: q.get('redirect_uri')!,
        });
        redirect.searchParams.set('code', code);
      }
      res.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(await body(req));
      tokenRequests.push(form);
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const pkceOk = grant && createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        json(200, { error: 'incorrect_client_credentials' });
      } else if (!grant || !pkceOk || form.get('redirect_uri') !== grant.redirectUri) {
        json(200, { error: 'bad_verification_code' });
      } else {
        const token = `gho_${randomBytes(16).toString('hex')}`;
        tokens.set(token, grant.account);
        json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      return;
    }
    const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (req.method === 'GET' && url.pathname.startsWith('/api/v3/')) {
      if (apiFailure !== null) return json(apiFailure, { message: 'Server Error' });
      if (!account) return json(401, { message: 'Bad credentials' });
      if (url.pathname === '/api/v3/user') {
        return json(200, { id: account.id, login: account.login, name: account.name, email: null });
      }
      if (url.pathname === '/api/v3/user/emails') return json(200, account.emails);
    }
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    signInAs(account) {
      current = account;
    },
    failApi(status) {
      apiFailure = status;
    },
    tokenRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
