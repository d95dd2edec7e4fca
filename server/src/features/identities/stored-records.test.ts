/**
 * Stored lookup records (decision 0017): the import keeps each person's record current, a suppression drops the
 * records it touches, and a person without a stored record is found with the same record built from the tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeCustomer, signIn, type TestApp } from '../../test/harness';
import { query, staleRecords } from '../people/import/test-records';
import { load, person, suppress, uniqueEmail } from './test-people';

let t: TestApp;
let cookie: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await signIn(t.app, (await makeCustomer(t.database)).email);
});
afterAll(() => t.app.close());

const get = (path: string) => api.get(`/v2/identities/${path}`, cookie);
const stored = async (id: number) =>
  (
    await query<{ n: number }>(t.database, 'select count(*)::int as n from person_records where identity_id = $1', [id])
  )[0]!.n;

describe('stored lookup records', () => {
  it('are stored by the load, and follow a re-import that changes the person', async () => {
    const p = person();
    await load(t.database, p);
    expect(await stored(p.id)).toBe(1);
    expect(await staleRecords(t.database, [p.id])).toEqual([]);

    const newEmail = uniqueEmail();
    await load(t.database, { ...p, firstName: 'Roberta', emails: [{ ...p.emails[0]!, address: newEmail }] });
    expect(await staleRecords(t.database, [p.id])).toEqual([]);
    const [found] = (await get(`byId?id=${p.id}`)).json().identities;
    expect(found.firstName).toBe('Roberta');
    expect(found.emails.map((e: { address: string }) => e.address)).toEqual([newEmail]);
    expect((await get(`byEmail?email=${p.emails[0]!.address}`)).json().identities).toEqual([]);
  });

  it('gives a person without a stored record the same record, built from the tables', async () => {
    const p = person();
    await load(t.database, p);
    const byEmail = () => get(`byEmail?email=${p.emails[0]!.address}`);
    // A PII match's record is read by a statement of its own.
    const pii = `byPii?firstName=${p.firstName}&lastName=${p.lastName}&address=${encodeURIComponent(p.address)}&zip=${p.zip}`;
    const before = [(await byEmail()).json().identities, (await get(pii)).json().identities];
    expect(before[1][0].id).toBe(p.id);
    await query(t.database, 'delete from person_records where identity_id = $1', [p.id]);
    expect([(await byEmail()).json().identities, (await get(pii)).json().identities]).toEqual(before);
  });

  it('are dropped by a suppression of their e-mail, hash or phone, and stored again without it by the next load', async () => {
    const [a, b, c, untouched] = [person(), person(), person(), person()];
    await load(t.database, a, b, c, untouched);
    await suppress(t.database, 'email', a.emails[0]!.address);
    await suppress(t.database, 'sha256', (await storedEmailHash(b.id))!);
    await suppress(t.database, 'phone', c.phones[0]!.number);
    expect(await Promise.all([a, b, c, untouched].map((p) => stored(p.id)))).toEqual([0, 0, 0, 1]);

    const [viaPhone] = (await get(`byPhone?phone=${encodeURIComponent(a.phones[0]!.number)}`)).json().identities;
    expect(viaPhone.emails).toEqual([]);
    const [viaEmail] = (await get(`byEmail?email=${c.emails[0]!.address}`)).json().identities;
    expect(viaEmail.phones).toEqual([]);

    await load(t.database, a, b, c);
    expect(await staleRecords(t.database, [a.id, b.id, c.id])).toEqual([]);
    const [again] = (await get(`byId?id=${a.id}`)).json().identities;
    expect(again.emails).toEqual([]);
  });

  it('shows a caller limited to some record types only those, whether stored or built', async () => {
    const p = person();
    await load(t.database, p);
    const limited = await signIn(
      t.app,
      (await makeCustomer(t.database, 'user', { allowedRecordTypes: ['phones'] })).email,
    );
    const look = async () => (await api.get(`/v2/identities/byId?id=${p.id}`, limited)).json().identities[0];
    const fromStored = await look();
    expect(fromStored.phones).toHaveLength(1);
    expect(fromStored).toMatchObject({ emails: [], ips: [], vehicles: [], finances: null, data: {} });
    await query(t.database, 'delete from person_records where identity_id = $1', [p.id]);
    expect(await look()).toEqual(fromStored);
  });
});

async function storedEmailHash(id: number): Promise<string | undefined> {
  const [row] = await query<{ sha256: string }>(t.database, 'select sha256 from person_emails where identity_id = $1', [
    id,
  ]);
  return row?.sha256;
}
