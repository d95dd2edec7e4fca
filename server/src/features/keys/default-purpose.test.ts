/** A key's default permissible purpose (issue 34 item 2): null or an id of common/purposes.ts; 400 otherwise. */
import { PURPOSE_MESSAGES } from '@tessera/common/purposes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
let cookie: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
});
afterAll(() => t.app.close());

const only = (res: { json(): { keys: Record<string, Record<string, unknown>> } }) => Object.values(res.json().keys)[0]!;
const fieldOf = (res: { json(): { fields: { path: string; message: string }[] } }) =>
  res.json().fields.find((f) => f.path.includes('defaultPurpose'))?.message;

describe('a key’s default purpose', () => {
  it('is null unless given, is returned and listed, and can be changed and cleared', async () => {
    const plain = await api.post('/v2/keys', cookie, { name: 'Plain' });
    expect(only(plain).defaultPurpose).toBeNull();
    const made = await api.post('/v2/keys', cookie, { name: 'Claims', defaultPurpose: 'dppa-insurance' });
    expect(made.statusCode, made.body).toBe(201);
    const key = only(made) as { id: string; defaultPurpose: string };
    expect(key.defaultPurpose).toBe('dppa-insurance');
    expect((await api.get('/v2/keys', cookie)).json().keys[key.id].defaultPurpose).toBe('dppa-insurance');

    const changed = await api.put(`/v2/keys/${key.id}`, cookie, { defaultPurpose: 'glba-fraud-prevention' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(only(changed).defaultPurpose).toBe('glba-fraud-prevention');
    const cleared = await api.put(`/v2/keys/${key.id}`, cookie, { defaultPurpose: null });
    expect(only(cleared).defaultPurpose).toBeNull();
  });

  it('refuses an id that is no purpose, or not a string, with 400 naming it', async () => {
    const unknown = await api.post('/v2/keys', cookie, { name: 'Bad', defaultPurpose: 'curiosity' });
    expect([unknown.statusCode, fieldOf(unknown)]).toEqual([400, PURPOSE_MESSAGES.unknown('curiosity')]);
    const wrong = await api.post('/v2/keys', cookie, { name: 'Bad', defaultPurpose: 7 });
    expect([wrong.statusCode, fieldOf(wrong)]).toEqual([
      400,
      'Please give a permissible purpose id, or null for none.',
    ]);
    const key = only(await api.post('/v2/keys', cookie, { name: 'Good' })) as { id: string };
    const patched = await api.put(`/v2/keys/${key.id}`, cookie, { defaultPurpose: 'spying' });
    expect([patched.statusCode, fieldOf(patched)]).toEqual([400, PURPOSE_MESSAGES.unknown('spying')]);
  });
});
