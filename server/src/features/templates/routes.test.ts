/** /v2/templates: each call by outcome, drafts and versions, publish reaching lookups, deletion, audit rows. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { load, person } from '../identities/test-people';
import { TEMPLATE_API_MESSAGES } from './routes';
import { TEMPLATE_MESSAGES } from './store';

let t: TestApp;
let cookie: string;
let strangerCookie: string;
let organizationId: number;
const api = consoleClient(() => t.app);
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  organizationId = (await makeOrganization(t.database)).id;
  await makeContract(t.database, organizationId);
  const user = await makeUser(t.database, 'admin', organizationId);
  cookie = await signIn(t.app, user.email);
  strangerCookie = await signIn(
    t.app,
    (await makeUser(t.database, 'admin', (await makeOrganization(t.database)).id)).email,
  );
  await load(t.database, p);
});
afterAll(() => t.app.close());

interface Reply {
  id: number;
  name: string;
  publishedVersion: number | null;
  expression: string;
  adminIds: number[];
  draft: { version: number; expression: string } | null;
  versions?: { version: number; expression: string }[];
  deletedAt?: string;
}
const only = (res: { json(): { templates: Record<string, Reply> } }) => Object.values(res.json().templates)[0]!;

async function create(expression = '{"id": id}', body: Record<string, unknown> = {}): Promise<Reply> {
  const res = await api.post('/v2/templates', cookie, { name: 'Mine', expression, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return only(res);
}

const lookup = (id: number) => api.get(`/v2/identities/byId?id=${p.id}&template=${id}`, cookie);

describe('/v2/templates', () => {
  it('401 for every call signed out', async () => {
    for (const [method, url] of [
      ['GET', '/v2/templates'],
      ['GET', '/v2/templates/1'],
      ['POST', '/v2/templates'],
      ['PUT', '/v2/templates/1'],
      ['POST', '/v2/templates/1/publish'],
      ['POST', '/v2/templates/1/restore'],
      ['DELETE', '/v2/templates/1'],
      ['POST', '/v2/templates/preview'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates a template with its first draft, unpublished, and audits it', async () => {
    const made = await create('{"id": id}', { description: 'Ids', adminIds: [organizationId] });
    expect(made).toMatchObject({
      name: 'Mine',
      publishedVersion: null,
      expression: '',
      adminIds: [organizationId],
      draft: { version: 1, expression: '{"id": id}' },
      versions: [],
    });
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'template.create'), eq(auditLog.targetId, String(made.id))));
    expect(rows).toHaveLength(1);
  });

  it('400 naming the field: a blank name, NUL in text, an unknown field, a syntax error with line and column', async () => {
    const blank = await api.post('/v2/templates', cookie, { name: ' ', expression: '$' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields[0].path).toBe('body.name');
    const nul = await api.post('/v2/templates', cookie, { name: 'a\u0000b', expression: '$' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().fields[0].path).toBe('body.name');
    const extra = await api.post('/v2/templates', cookie, { name: 'x', expression: '$', what: 1 });
    expect(extra.statusCode).toBe(400);
    const bad = await api.post('/v2/templates', cookie, { name: 'x', expression: '{\n  "a": foo bar\n}' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([
      { path: 'body.expression', message: expect.stringContaining('bar'), line: 2, column: 12 },
    ]);
  });

  it('403 for a system template or another organization unless super', async () => {
    const system = await api.post('/v2/templates', cookie, { name: 'x', expression: '$', organizationId: null });
    expect(system.statusCode).toBe(403);
    const elsewhere = await api.post('/v2/templates', cookie, {
      name: 'x',
      expression: '$',
      organizationId: organizationId + 1,
    });
    expect(elsewhere.statusCode).toBe(403);
  });

  it('400 for a super naming an organization that does not exist', async () => {
    const staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const res = await api.post('/v2/templates', staff, { name: 'x', expression: '$', organizationId: 2_000_000_000 });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toBe('body.organizationId');
  });

  it('400 when adminIds name a user or organization the editor cannot see', async () => {
    const res = await api.post('/v2/templates', cookie, { name: 'x', expression: '$', adminIds: [2_000_000_000] });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { path: 'body.adminIds', message: TEMPLATE_API_MESSAGES.notGrantable(2_000_000_000) },
    ]);
  });

  it('GET lists and reads a template with its versions; 404 out of sight and for a missing one', async () => {
    const made = await create();
    const listed = (await api.get('/v2/templates', cookie)).json().templates;
    expect(listed[made.id]).toMatchObject({ name: 'Mine' });
    expect(listed[1]).toMatchObject({ name: expect.any(String), organizationId: null });
    const one = await api.get(`/v2/templates/${made.id}`, cookie);
    expect(only(one)).toMatchObject({ id: made.id, versions: [] });
    expect((await api.get(`/v2/templates/${made.id}`, strangerCookie)).statusCode).toBe(404);
    expect((await api.get('/v2/templates', strangerCookie)).json().templates[made.id]).toBeUndefined();
    expect((await api.get('/v2/templates/999999', cookie)).statusCode).toBe(404);
    expect((await api.get('/v2/templates/abc', cookie)).statusCode).toBe(400);
  });

  it('PUT replaces the draft; a failed save leaves the previous draft and name intact', async () => {
    const made = await create('{"a": id}');
    const saved = await api.put(`/v2/templates/${made.id}`, cookie, { expression: '{"b": id}', name: 'Renamed' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(only(saved)).toMatchObject({ name: 'Renamed', draft: { version: 1, expression: '{"b": id}' } });
    const failed = await api.put(`/v2/templates/${made.id}`, cookie, { name: 'Lost', expression: '{"c": ' });
    expect(failed.statusCode).toBe(400);
    const refused = await api.put(`/v2/templates/${made.id}`, cookie, { name: 'Lost', adminIds: [2_000_000_000] });
    expect(refused.statusCode).toBe(400);
    const after = only(await api.get(`/v2/templates/${made.id}`, cookie));
    expect(after).toMatchObject({ name: 'Renamed', draft: { version: 1, expression: '{"b": id}' } });
    expect((await api.put(`/v2/templates/${made.id}`, strangerCookie, { name: 'x' })).statusCode).toBe(404);
  });

  it('publishes the draft as the next version, which the next lookup uses at once; 409 with no draft', async () => {
    const made = await create('{"first": id}');
    expect((await lookup(made.id)).statusCode).toBe(400); // nothing published yet
    const first = await api.post(`/v2/templates/${made.id}/publish`, cookie, {});
    expect(first.statusCode, first.body).toBe(200);
    expect(only(first)).toMatchObject({ publishedVersion: 1, expression: '{"first": id}', draft: null });
    expect((await lookup(made.id)).json().identities[0]).toMatchObject({ first: p.id });
    expect((await api.post(`/v2/templates/${made.id}/publish`, cookie, {})).statusCode).toBe(409);

    await api.put(`/v2/templates/${made.id}`, cookie, { expression: '{"second": id}' });
    expect((await lookup(made.id)).json().identities[0]).toMatchObject({ first: p.id }); // a draft is not used
    const second = await api.post(`/v2/templates/${made.id}/publish`, cookie, {});
    expect(only(second)).toMatchObject({ publishedVersion: 2, versions: [{ version: 2 }, { version: 1 }] });
    const shaped = (await lookup(made.id)).json().identities[0];
    expect(shaped).toMatchObject({ second: p.id });
    expect(shaped).not.toHaveProperty('first');
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'template.publish'), eq(auditLog.targetId, String(made.id))));
    expect(audited).toHaveLength(2);
    expect((await api.post(`/v2/templates/${made.id}/publish`, strangerCookie, {})).statusCode).toBe(404);
  });

  it('restores an old version as the draft; 404 for a version it does not have', async () => {
    const made = await create('{"v1": id}');
    await api.post(`/v2/templates/${made.id}/publish`, cookie, {});
    await api.put(`/v2/templates/${made.id}`, cookie, { expression: '{"v2": id}' });
    await api.post(`/v2/templates/${made.id}/publish`, cookie, {});
    const restored = await api.post(`/v2/templates/${made.id}/restore`, cookie, { version: 1 });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(only(restored)).toMatchObject({ publishedVersion: 2, draft: { version: 3, expression: '{"v1": id}' } });
    const missing = await api.post(`/v2/templates/${made.id}/restore`, cookie, { version: 9 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(TEMPLATE_API_MESSAGES.noVersion(9));
    expect((await api.post(`/v2/templates/${made.id}/restore`, cookie, { version: 'x' })).statusCode).toBe(400);
  });

  it('deletes softly: the reply carries deletedAt, and a lookup naming it answers 404 naming it', async () => {
    const made = await create('{"x": id}');
    await api.post(`/v2/templates/${made.id}/publish`, cookie, {});
    expect((await lookup(made.id)).statusCode).toBe(200);
    expect((await api.del(`/v2/templates/${made.id}`, strangerCookie)).statusCode).toBe(404);
    const gone = await api.del(`/v2/templates/${made.id}`, cookie);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().templates[made.id]).toEqual({ id: made.id, deletedAt: expect.any(String) });
    const res = await lookup(made.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(TEMPLATE_MESSAGES.deleted({ id: made.id, name: 'Mine' }));
    expect((await api.get(`/v2/templates/${made.id}`, cookie)).statusCode).toBe(404);
    expect((await api.del(`/v2/templates/${made.id}`, cookie)).statusCode).toBe(404);
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'template.delete'), eq(auditLog.targetId, String(made.id))));
    expect(rows).toHaveLength(1);
  });

  it('403 without X-Requested-With on a change', async () => {
    const made = await create();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v2/templates/${made.id}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(403);
  });
});
