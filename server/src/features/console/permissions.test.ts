/**
 * The permission matrix (issue: "every console route × every rank × own vs other organization"). Each cell is the
 * status the server answers; the half states answer the same everywhere: anonymous 401, a password-only
 * (resetter) session 403, a signer 451. Spec §6 and decision 0007 give the rules behind each row.
 */
import type { Role } from '@tessera/common/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeAccount,
  makeOrganization,
  makeUser,
  multipartFile,
  newAddress,
  PNG_PIXEL,
  signIn,
  type TestApp,
  uniqueDomain,
} from '../../test/harness';
import { issueToken } from '../email-tokens/service';
import { storeImage } from '../images/store';
import { createSessionService } from '../sessions/service';
import { findUserById } from '../users/repo';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

type Scope = 'own' | 'other';
type Rank = Role;
const RANKS: Rank[] = ['anonymous', 'resetter', 'signer', 'user', 'admin', 'super', 'root'];
const HALF_STATES: Partial<Record<Rank, number>> = { anonymous: 401, resetter: 403, signer: 451 };

interface Caller {
  cookie: string;
  own: number;
  other: number;
}

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  multipart?: { payload: Buffer; headers: Record<string, string> };
}

/** A target in the caller's own or the other organization: a passwordless user of role 'user' by default. */
async function target(db: Database, organizationId: number, role: Role = 'user') {
  return makeAccount(db, role, organizationId);
}

async function sessionOf(db: Database, userId: number): Promise<number> {
  const found = await findUserById(db.db, userId);
  const started = await createSessionService(db).start({
    user: found!.user,
    organizationName: found!.organizationName,
    remember: false,
    ip: '127.0.0.1',
    userAgent: 'matrix',
  });
  return started.session.id;
}

/** Each console route: how to build a request against a resource in `organizationId`, and the expected cells. */
const ROUTES: {
  name: string;
  build(db: Database, organizationId: number): Promise<Request>;
  expect: Record<'user' | 'admin' | 'super' | 'root', [own: number, other: number]>;
  /** The call replaces the caller's session (impersonation), so each cell needs a session of its own. */
  freshCaller?: true;
}[] = [
  {
    name: 'GET /v2/organizations',
    build: async () => ({ method: 'GET', url: '/v2/organizations' }),
    expect: { user: [200, 200], admin: [200, 200], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'GET /v2/organizations/:id',
    build: async (_db, org) => ({ method: 'GET', url: `/v2/organizations/${org}` }),
    expect: { user: [200, 404], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'POST /v2/organizations',
    build: async () => ({ method: 'POST', url: '/v2/organizations', body: { name: 'Matrix Org' } }),
    expect: { user: [403, 403], admin: [403, 403], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'PUT /v2/organizations/:id',
    build: async (_db, org) => ({ method: 'PUT', url: `/v2/organizations/${org}`, body: { name: 'Renamed' } }),
    expect: { user: [403, 403], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    // The caller's own organization is never empty (the caller is in it), so deleting it is a conflict.
    name: 'DELETE /v2/organizations/:id',
    build: async (db, org) => {
      const empty = org === -1 ? org : (await makeOrganization(db)).id;
      return { method: 'DELETE', url: `/v2/organizations/${empty}` };
    },
    expect: { user: [403, 403], admin: [403, 403], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'GET /v2/users',
    build: async (_db, org) => ({ method: 'GET', url: `/v2/users?organizationId=${org}` }),
    expect: { user: [200, 200], admin: [200, 200], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'GET /v2/users/:id',
    build: async (db, org) => ({ method: 'GET', url: `/v2/users/${(await target(db, org)).id}` }),
    expect: { user: [200, 404], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'POST /v2/users',
    build: async (db, org) => ({
      method: 'POST',
      url: '/v2/users',
      body: {
        email: await newAddress(db, 'new', org),
        name: 'New',
        role: 'user',
        organizationId: org,
      },
    }),
    expect: { user: [403, 403], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'PUT /v2/users/:id',
    build: async (db, org) => ({
      method: 'PUT',
      url: `/v2/users/${(await target(db, org)).id}`,
      body: { name: 'Edited' },
    }),
    expect: { user: [403, 404], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'PUT /v2/users/:id (role to admin)',
    build: async (db, org) => ({
      method: 'PUT',
      url: `/v2/users/${(await target(db, org)).id}`,
      body: { role: 'admin' },
    }),
    expect: { user: [403, 404], admin: [403, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'DELETE /v2/users/:id',
    build: async (db, org) => ({ method: 'DELETE', url: `/v2/users/${(await target(db, org)).id}` }),
    expect: { user: [403, 403], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'POST /v2/users/:id/image',
    build: async (db, org) => ({
      method: 'POST',
      url: `/v2/users/${(await target(db, org)).id}/image`,
      multipart: multipartFile(PNG_PIXEL),
    }),
    expect: { user: [403, 404], admin: [200, 404], super: [200, 200], root: [200, 200] },
  },
  {
    // Pictures are named by their content hash: whoever was shown the name may fetch it, in any organization.
    name: 'GET /v2/images/:name',
    build: async (db, org) => {
      const owner = await target(db, org);
      const name = await storeImage(db.db, Buffer.concat([PNG_PIXEL, Buffer.from(String(owner.id))]), owner.id);
      return { method: 'GET', url: `/v2/images/${name}` };
    },
    expect: { user: [200, 200], admin: [200, 200], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'GET /v2/sessions',
    build: async () => ({ method: 'GET', url: '/v2/sessions' }),
    expect: { user: [200, 200], admin: [200, 200], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'DELETE /v2/sessions/:id',
    build: async (db, org) => ({
      method: 'DELETE',
      url: `/v2/sessions/${await sessionOf(db, (await target(db, org)).id)}`,
    }),
    expect: { user: [404, 404], admin: [404, 404], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'DELETE /v2/sessions',
    build: async () => ({ method: 'DELETE', url: '/v2/sessions' }),
    expect: { user: [200, 200], admin: [200, 200], super: [200, 200], root: [200, 200] },
  },
  {
    name: 'PUT /auth/impersonate/:id',
    build: async (db, org) => ({ method: 'PUT', url: `/auth/impersonate/${(await target(db, org)).id}` }),
    expect: { user: [403, 403], admin: [403, 403], super: [200, 200], root: [200, 200] },
    freshCaller: true,
  },
];

const callers = new Map<Rank, Caller>();

/** A session of each rank, in an organization of its own, beside another organization. */
async function callerOf(rank: Rank, fresh = false): Promise<Caller> {
  const cached = fresh ? undefined : callers.get(rank);
  if (cached) return cached;
  const own = (await makeOrganization(t.database, undefined, { emailDomain: uniqueDomain() })).id;
  const other = (await makeOrganization(t.database, undefined, { emailDomain: uniqueDomain() })).id;
  let cookie = '';
  if (rank === 'resetter') {
    const member = await makeAccount(t.database, 'user', own);
    const token = await issueToken(t.database.db, member.id, 'reset');
    const opened = await t.app.inject({
      method: 'POST',
      url: '/auth/link',
      headers: CONSOLE_HEADERS,
      payload: { token },
    });
    cookie = opened.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  } else if (rank === 'signer') {
    cookie = await signIn(t.app, (await makeUser(t.database, 'user', own, { acceptTerms: false })).email);
  } else if (rank !== 'anonymous') {
    cookie = await signIn(t.app, (await makeUser(t.database, rank, own)).email);
  }
  const caller = { cookie, own, other };
  if (!fresh) callers.set(rank, caller);
  return caller;
}

function send(request: Request, cookie: string) {
  if (request.multipart) {
    return t.app.inject({
      method: request.method,
      url: request.url,
      headers: { ...request.multipart.headers, cookie },
      payload: request.multipart.payload,
    });
  }
  return t.app.inject({
    method: request.method,
    url: request.url,
    headers: { ...CONSOLE_HEADERS, cookie },
    ...(request.body === undefined ? {} : { payload: request.body as object }),
  });
}

describe('permission matrix: every console route × every rank × own vs other organization', () => {
  for (const route of ROUTES) {
    describe(route.name, () => {
      for (const rank of RANKS) {
        for (const scope of ['own', 'other'] as Scope[]) {
          const expected =
            HALF_STATES[rank] ?? route.expect[rank as keyof typeof route.expect][scope === 'own' ? 0 : 1];
          it(`${rank} in the ${scope} organization → ${expected}`, async () => {
            const caller = await callerOf(rank, route.freshCaller);
            const request = await route.build(t.database, scope === 'own' ? caller.own : caller.other);
            const res = await send(request, caller.cookie);
            expect(res.statusCode, res.body).toBe(expected);
          });
        }
      }
    });
  }
});
