/**
 * What the NUL sweep needs so that each probe reaches as far as a real request would: a root of an organization
 * with a contract, signed in with the password confirmed again (the query console's step-up), and one of each
 * thing a route acts on by id (made through the API, as a console user would), with real values by field name.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { consoleClient } from '../test/console-client';
import { makeAccount, makeCustomer, makeUser, PASSWORD, signIn, type TestApp } from '../test/harness';
import { keyDir, keygen } from '../test/ssh';

export interface Given {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

export interface SweepFixtures {
  cookie: string;
  /** A real value for a field by its name. */
  hint(name: string): unknown;
  /** Values a route needs beyond its fields' names (its own ids), by `METHOD /url`. */
  given(route: string): Given;
}

type Reply = { statusCode: number; body: string; json(): Record<string, Record<string, { id: number }>> };

/** The one item of a keyed reply (`{ keys: { id: {...} } }`), or a failure naming the call. */
function created(res: Reply, area: string, what: string): { id: number } & Record<string, unknown> {
  if (res.statusCode >= 300) throw new Error(`sweep fixture ${what}: ${res.statusCode} ${res.body}`);
  const item = res.json()[area];
  if (!item) throw new Error(`sweep fixture ${what}: no ${area} in ${res.body}`);
  return ('id' in item ? item : Object.values(item)[0]) as { id: number };
}

export async function makeSweepFixtures(t: TestApp, commit: string): Promise<SweepFixtures> {
  const api = consoleClient(() => t.app);
  const root = await makeCustomer(t.database, 'root');
  const organizationId = root.organizationId!;
  const cookie = await signIn(t.app, root.email);
  const confirm = await api.post('/auth/confirm', cookie, { password: PASSWORD });
  if (confirm.statusCode !== 200) throw new Error(`sweep step-up: ${confirm.body}`);
  const member = await makeAccount(t.database, 'user', organizationId);
  const chatter = await makeUser(t.database, 'user', organizationId);
  const chatCookie = await signIn(t.app, chatter.email);
  const conversation = created(
    await api.post('/v2/chat/conversations', chatCookie, {}),
    'chatConversation',
    'chat conversation',
  );
  const contract = (await api.get(`/v2/contracts?organizationId=${organizationId}`, cookie)).json().contracts;
  const contractId = Number(Object.keys(contract)[0]);
  const apiKey = created(await api.post('/v2/keys', cookie, { name: 'Sweep' }), 'keys', 'API key');
  const saved = created(
    await api.post('/v2/saved-queries', cookie, { name: 'Sweep', cluster: 'main', sql: 'select 1' }),
    'savedQuery',
    'saved query',
  );
  const suppression = created(
    await api.post('/v2/suppressions', cookie, { value: `sweep-${randomUUID()}@sweep.example` }),
    'suppressions',
    'suppression',
  );
  const segment = created(
    await api.post('/v2/segments', cookie, { name: 'Sweep', filters: {} }),
    'segments',
    'segment',
  );
  const template = created(
    await api.post('/v2/templates', cookie, { name: 'Sweep', expression: '{"id": id}' }),
    'templates',
    'template',
  );
  const release = created(
    await api.post('/v2/releases', cookie, { version: version(), commit, notes: 'Sweep' }),
    'releases',
    'release',
  );
  const contact = await api.post('/v2/contact', cookie, {
    name: 'Sweep',
    email: `sweep-${randomUUID()}@sweep.example`,
    company: '',
    phone: '',
    message: 'Sweep',
  });
  const contactId = created(contact, 'contactSent', 'contact message').id;
  const group = created(
    await api.post('/v2/ssh/groups', cookie, { name: `sweep-${randomUUID().slice(0, 8)}` }),
    'sshHostGroups',
    'SSH host group',
  );
  const dir = keyDir();
  const sshKey = created(
    await api.post('/v2/ssh/keys', cookie, { publicKey: keygen(dir, 'sweep', 'ed25519').publicKey, name: 'Sweep' }),
    'sshKeys',
    'SSH key',
  );
  const unregistered = keygen(dir, 'unregistered', 'ed25519').publicKey;
  rmSync(dir, { recursive: true, force: true });
  const grant = created(
    await api.post('/v2/ssh/grants', cookie, {
      keyId: sshKey.id,
      groupId: group.id,
      principal: 'sweep',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    }),
    'sshGrants',
    'SSH grant',
  );

  const HINTS: Record<string, unknown> = {
    organizationId,
    email: `sweep-${randomUUID()}@sweep.example`,
    name: 'Sweep',
    password: PASSWORD,
    newPassword: PASSWORD,
    cluster: 'main',
    sql: 'select 1',
    version: version(),
    commit,
    notes: 'Sweep',
    filters: {},
    expression: '{"id": id}',
    publicKey: unregistered,
    keyId: sshKey.id,
    groupId: group.id,
    grantId: grant.id,
    // A draft: a deployment's environment and hosts are read only for a published release (which would start a real
    // rollout), so their NUL probes meet the release's 400 first.
    releaseId: release.id,
    environment: 'sweep',
    message: 'Sweep',
    text: 'Sweep',
    reason: 'Sweep',
    principal: 'sweep',
    html: '<p>Sweep</p>',
    hours: 1,
    upTo: 0,
    month: '2001-01',
    token: 'x'.repeat(40),
    ndaId: 1,
    value: `sweep-${randomUUID()}@sweep.example`,
    url: '/',
    group: group.name,
    user: 'sweep',
    // A lookup's inputs, each well-formed, so that a NUL in another field of the same input is what is refused.
    id: '1',
    phone: '+12175550100',
    md5: '0'.repeat(32),
    sha256: '0'.repeat(64),
    ip: '192.0.2.1',
    device: randomUUID(),
    vin: '1HGCM82633A004352',
    firstName: 'Ada',
    lastName: 'Lovelace',
    address: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
  };
  const GIVEN: Record<string, Given> = {
    'PUT /v2/organizations/:id': { params: { id: organizationId } },
    'PUT /v2/organizations/:id/usage-alerts': { params: { id: organizationId } },
    'PUT /v2/users/:id': { params: { id: member.id } },
    'PUT /v2/keys/:id': { params: { id: apiKey.id } },
    'POST /v2/keys/:id/rotate': { params: { id: apiKey.id } },
    'PUT /v2/contracts/:id': { params: { id: contractId } },
    'PUT /v2/contact-messages/:id': { params: { id: contactId } },
    'PUT /v2/saved-queries/:id': { params: { id: saved.id } },
    'DELETE /v2/suppressions/:id': { params: { id: suppression.id } },
    'PUT /v2/segments/:id': { params: { id: segment.id } },
    'PUT /v2/templates/:id': { params: { id: template.id } },
    'POST /v2/templates/:id/restore': { params: { id: template.id } },
    'PUT /v2/releases/:id': { params: { id: release.id } },
    'POST /v2/chat/conversations/:id/messages': { params: { id: conversation.id } },
    'POST /v2/chat/conversations/:id/read': { params: { id: conversation.id } },
    'POST /auth/password/:action': { params: { action: 'change' } },
    'GET /v2/ssh/authorized_keys': { query: { group: group.name, user: 'sweep' } },
  };
  for (const part of ['series', 'totals', 'calls', 'calls.csv']) {
    GIVEN[`GET /v2/usage/${part}`] = { query: { keyId: apiKey.id } };
  }
  return {
    cookie,
    hint: (name) => HINTS[name],
    given: (route) => GIVEN[route] ?? {},
  };
}

const version = () => `9.${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}-sweep`;
