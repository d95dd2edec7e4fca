/**
 * Conditional requests on keys and templates (issue 31): ETag on GET of one and of the list, 304 to If-None-Match,
 * 412 to an edit whose If-Match names a version the item has moved on from, with nothing changed.
 */
import { STALE_MESSAGES, versionTag } from '@tessera/common/etag';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeContract,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
} from '../../test/harness';

let t: TestApp;
let cookie: string;
let memberCookie: string;
let strangerCookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  const organizationId = (await makeOrganization(t.database)).id;
  await makeContract(t.database, organizationId);
  cookie = await signIn(t.app, (await makeUser(t.database, 'admin', organizationId)).email);
  memberCookie = await signIn(t.app, (await makeUser(t.database, 'user', organizationId)).email);
  strangerCookie = await signIn(
    t.app,
    (await makeUser(t.database, 'admin', (await makeOrganization(t.database)).id)).email,
  );
});
afterAll(() => t.app.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const send = (method: Method, url: string, headers: Record<string, string> = {}, payload?: unknown, as = cookie) =>
  t.app.inject({
    method,
    url,
    headers: { ...CONSOLE_HEADERS, cookie: as, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
// biome-ignore lint/suspicious/noExplicitAny: replies of any item
const only = (res: LightMyRequestResponse): any => Object.values(res.json().keys ?? res.json().templates)[0];

function expectStale(res: LightMyRequestResponse, message: string, current: string) {
  expect(res.statusCode, res.body).toBe(412);
  expect(res.json()).toEqual({ error: message, code: 'precondition_failed', requestId: res.headers['x-request-id'] });
  expect(res.headers.etag).toBe(current);
}

async function newKey(name = 'tagged') {
  const res = await send('POST', '/v2/keys', {}, { name });
  expect(res.statusCode, res.body).toBe(201);
  return only(res) as { id: string; secret: string; updatedAt: string; lastFour: string };
}

describe('ETag and If-None-Match', () => {
  it('a key: 304 while it is unchanged, 200 with a new tag once edited or used', async () => {
    const key = await newKey();
    const first = await send('GET', `/v2/keys/${key.id}`);
    expect(first.statusCode).toBe(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[0-9a-z]+\.[\w-]+"$/);
    expect(tag.startsWith(versionTag(key).slice(0, -1))).toBe(true);
    const again = await send('GET', `/v2/keys/${key.id}`, { 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(tag);
    // Weak comparison, and any of a list.
    expect((await send('GET', `/v2/keys/${key.id}`, { 'if-none-match': `"x", W/${tag}` })).statusCode).toBe(304);
    expect((await send('GET', `/v2/keys/${key.id}`, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    // A call with the key moves its usage figures: the tag moves, so a cache never keeps the old ones.
    const lookup = await t.app.inject({
      method: 'GET',
      url: '/v2/identities/byId?id=1',
      headers: { authorization: `Bearer ${key.id}${key.secret}` },
    });
    expect(lookup.statusCode).toBe(200);
    const used = await send('GET', `/v2/keys/${key.id}`, { 'if-none-match': tag });
    expect(used.statusCode).toBe(200);
    expect(only(used).callsThisMonth).toBe(1);
    expect(used.headers.etag).not.toBe(tag);
    const renamed = await send('PUT', `/v2/keys/${key.id}`, {}, { name: 'renamed' });
    expect(renamed.headers.etag).not.toBe(used.headers.etag);
    expect((await send('GET', `/v2/keys/${key.id}`, { 'if-none-match': used.headers.etag as string })).statusCode).toBe(
      200,
    );
  });

  it('the key list: 304 while no key in it changes, 200 once one does', async () => {
    await newKey();
    const list = await send('GET', '/v2/keys');
    const tag = list.headers.etag as string;
    expect(tag).toMatch(/^"[\w-]{27}"$/);
    expect((await send('GET', '/v2/keys', { 'if-none-match': tag })).statusCode).toBe(304);
    await newKey('another');
    const changed = await send('GET', '/v2/keys', { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
  });

  it('a template and the template list: 304 while unchanged, 200 after an edit', async () => {
    const made = only(await send('POST', '/v2/templates', {}, { name: 'Tagged', expression: '{"id": id}' }));
    const one = await send('GET', `/v2/templates/${made.id}`);
    expect(one.headers.etag).toBe(versionTag(made));
    const list = await send('GET', '/v2/templates');
    expect((await send('GET', `/v2/templates/${made.id}`, { 'if-none-match': versionTag(made) })).statusCode).toBe(304);
    expect((await send('GET', '/v2/templates', { 'if-none-match': list.headers.etag as string })).statusCode).toBe(304);
    await send('PUT', `/v2/templates/${made.id}`, {}, { description: 'changed' });
    expect((await send('GET', `/v2/templates/${made.id}`, { 'if-none-match': versionTag(made) })).statusCode).toBe(200);
    expect((await send('GET', '/v2/templates', { 'if-none-match': list.headers.etag as string })).statusCode).toBe(200);
  });

  it('401 signed out and 404 out of reach, whatever If-None-Match says', async () => {
    const key = await newKey();
    const tag = (await send('GET', `/v2/keys/${key.id}`)).headers.etag as string;
    const signedOut = await t.app.inject({
      method: 'GET',
      url: `/v2/keys/${key.id}`,
      headers: { 'if-none-match': tag },
    });
    expect(signedOut.statusCode).toBe(401);
    expect(
      (await send('GET', `/v2/keys/${key.id}`, { 'if-none-match': tag }, undefined, strangerCookie)).statusCode,
    ).toBe(404);
  });
});

describe('If-Match on key edits', () => {
  it('changes a key when it names the version loaded, and refuses a stale one with 412, changing nothing', async () => {
    const key = await newKey();
    const loaded = versionTag(key);
    const saved = await send('PUT', `/v2/keys/${key.id}`, { 'if-match': loaded }, { name: 'first' });
    expect(saved.statusCode, saved.body).toBe(200);
    const current = versionTag(only(saved));
    expect(saved.headers.etag?.toString().startsWith(current.slice(0, -1))).toBe(true);
    // A second edit made with the same loaded version (another tab) is refused, even straight after the first.
    expectStale(
      await send('PUT', `/v2/keys/${key.id}`, { 'if-match': loaded }, { name: 'second' }),
      STALE_MESSAGES.key,
      current,
    );
    expect(only(await send('GET', `/v2/keys/${key.id}`)).name).toBe('first');
    // The tag a GET gave (usage after the dot), '*', or any of a list naming the version: served.
    const got = (await send('GET', `/v2/keys/${key.id}`)).headers.etag as string;
    expect((await send('PUT', `/v2/keys/${key.id}`, { 'if-match': got }, { name: 'third' })).statusCode).toBe(200);
    expect((await send('PUT', `/v2/keys/${key.id}`, { 'if-match': '*' }, { name: 'fourth' })).statusCode).toBe(200);
    const now = versionTag(only(await send('GET', `/v2/keys/${key.id}`)));
    expect((await send('PUT', `/v2/keys/${key.id}`, { 'if-match': `"x", ${now}` }, { name: 'fifth' })).statusCode).toBe(
      200,
    );
    // A weak tag never matches (strong comparison).
    const latest = versionTag(only(await send('GET', `/v2/keys/${key.id}`)));
    expectStale(
      await send('PUT', `/v2/keys/${key.id}`, { 'if-match': `W/${latest}` }, { name: 'weak' }),
      STALE_MESSAGES.key,
      latest,
    );
    // Without If-Match an edit goes ahead as before.
    expect((await send('PUT', `/v2/keys/${key.id}`, {}, { name: 'plain' })).statusCode).toBe(200);
  });

  it('a key in use can still be edited with the version loaded before the calls', async () => {
    const key = await newKey();
    const lookup = await t.app.inject({
      method: 'GET',
      url: '/v2/identities/byId?id=1',
      headers: { authorization: `Bearer ${key.id}${key.secret}` },
    });
    expect(lookup.statusCode).toBe(200);
    expect(
      (await send('PUT', `/v2/keys/${key.id}`, { 'if-match': versionTag(key) }, { name: 'in use' })).statusCode,
    ).toBe(200);
  });

  it('412 on a stale rotation or revocation: the secret stays and the key lives', async () => {
    const key = await newKey();
    const edited = only(await send('PUT', `/v2/keys/${key.id}`, {}, { name: 'moved on' }));
    const stale = { 'if-match': versionTag(key) };
    expectStale(await send('POST', `/v2/keys/${key.id}/rotate`, stale, {}), STALE_MESSAGES.key, versionTag(edited));
    expectStale(await send('DELETE', `/v2/keys/${key.id}`, stale), STALE_MESSAGES.key, versionTag(edited));
    const after = only(await send('GET', `/v2/keys/${key.id}`));
    expect(after).toMatchObject({ lastFour: key.lastFour, name: 'moved on' });
    expect(after.deletedAt).toBeUndefined();
    const fresh = { 'if-match': versionTag(edited) };
    const rotated = await send('POST', `/v2/keys/${key.id}/rotate`, fresh, {});
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(only(rotated).lastFour).not.toBe(key.lastFour);
    expectStale(await send('DELETE', `/v2/keys/${key.id}`, fresh), STALE_MESSAGES.key, versionTag(only(rotated)));
    expect((await send('DELETE', `/v2/keys/${key.id}`, { 'if-match': versionTag(only(rotated)) })).statusCode).toBe(
      200,
    );
  });

  it('404 before 412 for a key out of reach, and 400 for a malformed id', async () => {
    const key = await newKey();
    const stale = { 'if-match': '"0"' };
    expect((await send('PUT', `/v2/keys/${key.id}`, stale, { name: 'x' }, strangerCookie)).statusCode).toBe(404);
    expect((await send('DELETE', `/v2/keys/${key.id}`, stale, undefined, strangerCookie)).statusCode).toBe(404);
    expect((await send('PUT', '/v2/keys/nope', stale, { name: 'x' })).statusCode).toBe(400);
  });
});

describe('If-Match on template edits', () => {
  async function template() {
    const res = await send('POST', '/v2/templates', {}, { name: 'Guarded', expression: '{"id": id}' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe(versionTag(only(res)));
    return only(res) as { id: number; updatedAt: string };
  }

  it('saves with the version loaded and refuses a stale save with 412, changing nothing', async () => {
    const made = await template();
    const saved = await send('PUT', `/v2/templates/${made.id}`, { 'if-match': versionTag(made) }, { name: 'First' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.headers.etag).toBe(versionTag(only(saved)));
    const stale = await send(
      'PUT',
      `/v2/templates/${made.id}`,
      { 'if-match': versionTag(made) },
      { name: 'Second', expression: '{"second": id}' },
    );
    expectStale(stale, STALE_MESSAGES.template, versionTag(only(saved)));
    const now = only(await send('GET', `/v2/templates/${made.id}`));
    expect(now).toMatchObject({ name: 'First', draft: { expression: '{"id": id}' } });
  });

  it('412 on a stale publish, restore or delete', async () => {
    const made = await template();
    const published = only(await send('POST', `/v2/templates/${made.id}/publish`, { 'if-match': versionTag(made) }));
    expect(published.publishedVersion).toBe(1);
    const stale = { 'if-match': versionTag(made) };
    const current = versionTag(published);
    await send('PUT', `/v2/templates/${made.id}`, { 'if-match': current }, { expression: '{"two": id}' });
    const latest = only(await send('GET', `/v2/templates/${made.id}`));
    expectStale(
      await send('POST', `/v2/templates/${made.id}/publish`, { 'if-match': current }),
      STALE_MESSAGES.template,
      versionTag(latest),
    );
    expectStale(
      await send('POST', `/v2/templates/${made.id}/restore`, stale, { version: 1 }),
      STALE_MESSAGES.template,
      versionTag(latest),
    );
    expectStale(await send('DELETE', `/v2/templates/${made.id}`, stale), STALE_MESSAGES.template, versionTag(latest));
    const after = only(await send('GET', `/v2/templates/${made.id}`));
    expect(after).toMatchObject({ publishedVersion: 1, draft: { expression: '{"two": id}' } });
    expect(after.deletedAt).toBeUndefined();
    const deleted = await send('DELETE', `/v2/templates/${made.id}`, { 'if-match': versionTag(latest) });
    expect(deleted.statusCode).toBe(200);
  });

  it('403 before 412 for a template seen but not editable, 404 out of sight', async () => {
    const made = await template();
    const stale = { 'if-match': '"0"' };
    expect((await send('PUT', `/v2/templates/${made.id}`, stale, { name: 'x' }, memberCookie)).statusCode).toBe(403);
    expect((await send('DELETE', `/v2/templates/${made.id}`, stale, undefined, strangerCookie)).statusCode).toBe(404);
  });
});
