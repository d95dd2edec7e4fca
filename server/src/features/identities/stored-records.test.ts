/**
 * Stored lookup records (decision 0017): the import keeps each person's record current, a suppression drops the
 * records it touches, and a person without a stored record is found with the same record built from the tables.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { makeCustomer, signIn, type TestApp } from '../../test/harness';
import { query, staleRecords } from '../people/import/test-records';
import { buildRecordsSql, RECORD_VERSION } from './record-sql';
import { signedInCustomer } from './test-caller';
import { load, person, suppress, uniqueEmail, uniqueZip } from './test-people';

let t: TestApp;
let cookie: string;
const api = consoleClient(() => t.app);
signedInCustomer((app, signedIn) => {
  t = app;
  cookie = signedIn;
});

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
    const p = person({ zip: uniqueZip() });
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
    const [a, b, c, d, untouched] = [person(), person(), person(), person(), person()];
    await load(t.database, a, b, c, d, untouched);
    await suppress(t.database, 'email', a.emails[0]!.address);
    await suppress(t.database, 'sha256', (await storedEmail(b.id)).sha256);
    await suppress(t.database, 'phone', c.phones[0]!.number);
    await suppress(t.database, 'md5', (await storedEmail(d.id)).md5);
    expect(await Promise.all([a, b, c, d, untouched].map((p) => stored(p.id)))).toEqual([0, 0, 0, 0, 1]);

    const [viaPhone] = (await get(`byPhone?phone=${encodeURIComponent(a.phones[0]!.number)}`)).json().identities;
    expect(viaPhone.emails).toEqual([]);
    const [viaEmail] = (await get(`byEmail?email=${c.emails[0]!.address}`)).json().identities;
    expect(viaEmail.phones).toEqual([]);

    await load(t.database, a, b, c);
    expect(await staleRecords(t.database, [a.id, b.id, c.id])).toEqual([]);
    const [again] = (await get(`byId?id=${a.id}`)).json().identities;
    expect(again.emails).toEqual([]);
  });

  it('are dropped when a suppression is changed or lifted, so what it hid shows again', async () => {
    const [p, q] = [person(), person()];
    await load(t.database, p, q);
    await suppress(t.database, 'email', p.emails[0]!.address);
    await load(t.database, p); // stored again, without the e-mail
    expect(await stored(p.id)).toBe(1);
    await query(t.database, "delete from suppressions where kind = 'email' and value = $1", [p.emails[0]!.address]);
    expect(await stored(p.id)).toBe(0);
    const [lifted] = (await get(`byId?id=${p.id}`)).json().identities;
    expect(lifted.emails.map((e: { address: string }) => e.address)).toEqual([p.emails[0]!.address]);

    await suppress(t.database, 'phone', '+15550000000');
    await load(t.database, p);
    await query(t.database, "update suppressions set value = $1 where kind = 'phone' and value = '+15550000000'", [
      q.phones[0]!.number,
    ]);
    expect([await stored(p.id), await stored(q.id)]).toEqual([1, 0]);
    expect((await get(`byId?id=${q.id}`)).json().identities[0].phones).toEqual([]);
  });

  it('of another version than the builder are not used, and the next load replaces them', async () => {
    const p = person();
    await load(t.database, p);
    const before = (await get(`byId?id=${p.id}`)).json().identities;
    await query(
      t.database,
      `update person_records set version = $2, record = json_build_object('id', identity_id, 'firstName', 'Stale')
       where identity_id = $1`,
      [p.id, RECORD_VERSION + 1],
    );
    expect((await get(`byId?id=${p.id}`)).json().identities).toEqual(before);
    await load(t.database, p);
    expect(await staleRecords(t.database, [p.id])).toEqual([]);
  });

  it('keep RECORD_VERSION with the builder: a change to the record SQL must bump it', () => {
    // When this fails: bump RECORD_VERSION in record-sql.ts, then put the new version and digest here.
    const digest = createHash('sha256').update(buildRecordsSql()).digest('hex').slice(0, 16);
    expect({ version: RECORD_VERSION, digest }).toEqual({ version: 1, digest: 'a1c5d0b22d3952f4' });
  });

  it('shows a caller limited to some record types only those, whether stored or built', async () => {
    const p = person({ zip: uniqueZip() });
    await load(t.database, p);
    const limited = await signIn(
      t.app,
      (await makeCustomer(t.database, 'user', { allowedRecordTypes: ['phones'] })).email,
    );
    const look = async () => (await api.get(`/v2/identities/byId?id=${p.id}`, limited)).json().identities[0];
    const fromStored = await look();
    expect(fromStored.phones).toHaveLength(1);
    expect(fromStored).toMatchObject({ emails: [], ips: [], vehicles: [], finances: null, data: {} });
    // A PII match's record is read by its own statement: the same rule.
    const pii = `/v2/identities/byPii?firstName=${p.firstName}&lastName=${p.lastName}&address=${encodeURIComponent(p.address)}&zip=${p.zip}`;
    const [viaPii] = (await api.get(pii, limited)).json().identities;
    expect(viaPii.id).toBe(p.id);
    expect(viaPii).toMatchObject({
      emails: [],
      ips: [],
      vehicles: [],
      finances: null,
      data: {},
      phones: fromStored.phones,
    });
    await query(t.database, 'delete from person_records where identity_id = $1', [p.id]);
    expect(await look()).toEqual(fromStored);
  });
});

async function storedEmail(id: number): Promise<{ md5: string; sha256: string }> {
  const [row] = await query<{ md5: string; sha256: string }>(
    t.database,
    'select md5, sha256 from person_emails where identity_id = $1',
    [id],
  );
  return row!;
}
