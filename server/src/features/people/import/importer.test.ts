/**
 * The import path on the worker's database (PGlite, or PostgreSQL with TEST_DATABASE_URL): generated people load
 * and re-load in place, refused rows are reported with file, line and reason, CSV maps onto the same record,
 * e-mail hashes and previous addresses land where lookups expect them, and a failing batch leaves nothing behind.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { testDatabase } from '../../../test/harness';
import { type IdentityRecord, PREVIOUS_ADDRESS_KEYS } from '../record';
import { readCsv } from './csv';
import { csvField } from './csv-fields';
import { importRows } from './importer';
import { readJsonl } from './jsonl';
import type { Reject } from './rejects';
import type { SourceRow } from './source';
import { countsFor, generatedPeople, jsonl, ownIdBase, query, scratchFile, tableContents } from './test-records';
import { writeBatch } from './write-batch';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const PREVIOUS = new Set<string>(Object.values(PREVIOUS_ADDRESS_KEYS));

function expectedCounts(people: IdentityRecord[]): Record<string, number> {
  const sum = (f: (p: IdentityRecord) => number) => people.reduce((n, p) => n + f(p), 0);
  return {
    people: people.length,
    person_addresses: sum((p) => (p.data.previousAddress ? 1 : 0)),
    person_emails: sum((p) => p.emails.length),
    person_phones: sum((p) => p.phones.length),
    person_ips: sum((p) => p.ips.length),
    person_devices: sum((p) => p.devices.length),
    person_vehicles: sum((p) => p.vehicles.length),
    person_properties: sum((p) => p.properties.length),
    person_finances: sum((p) => (p.finances ? 1 : 0)),
    person_companies: sum((p) => p.companies.length),
    person_behaviors: sum((p) => p.behaviors.length),
    person_data: sum((p) => Object.keys(p.data).filter((k) => !PREVIOUS.has(k)).length),
  };
}

async function importFile(file: string, batchSize = 50) {
  const rejects: Reject[] = [];
  const rows = file.endsWith('.csv') ? readCsv(file) : readJsonl(file);
  const summary = await importRows(database, rows, { batchSize, onReject: (r) => rejects.push(r) });
  return { ...summary, rejects };
}

describe('importing identity records', () => {
  it('loads a generated graph, and a re-import with changes replaces it in place', async () => {
    const base = ownIdBase();
    const people = generatedPeople(120, 'import-a', base);
    const ids = people.map((p) => p.id);
    const first = await importFile(scratchFile('people.jsonl', jsonl(people)));
    expect(first).toMatchObject({ loaded: 120, rejected: 0 });
    expect(await countsFor(database, ids)).toEqual(expectedCounts(people));

    const changed = people.map((p, i) =>
      i % 2 === 0
        ? { ...p, lastName: `${p.lastName}-x`, emails: p.emails.slice(0, 1), phones: [], data: { language: 'Greek' } }
        : p,
    );
    const again = await importFile(scratchFile('people.jsonl', jsonl(changed)), 32);
    expect(again).toMatchObject({ loaded: 120, rejected: 0 });
    expect(await countsFor(database, ids)).toEqual(expectedCounts(changed));
    const [row] = await query<{ last_name: string }>(database, 'select last_name from people where id = $1', [ids[0]]);
    expect(row!.last_name).toBe(`${people[0]!.lastName}-x`);
    const data = await query<{ key: string; value: string }>(
      database,
      'select key, value from person_data where identity_id = $1',
      [ids[0]],
    );
    expect(data).toEqual([{ key: 'language', value: 'Greek' }]);
  });

  it('keeps the later row when one file lists a person twice', async () => {
    const [person] = generatedPeople(1, 'import-twice', ownIdBase());
    const later = { ...person!, firstName: 'Later', emails: [] };
    const result = await importFile(scratchFile('twice.jsonl', jsonl([person, later])));
    expect(result).toMatchObject({ loaded: 2, rejected: 0 });
    const [row] = await query<{ first_name: string }>(database, 'select first_name from people where id = $1', [
      person!.id,
    ]);
    expect(row!.first_name).toBe('Later');
    expect((await countsFor(database, [person!.id])).person_emails).toBe(0);
  });

  it('stores md5 and sha256 of each normalized e-mail, lower-case hex', async () => {
    const [person] = generatedPeople(1, 'import-hash', ownIdBase());
    const address = 'jane.doe+x@example.org';
    const record = { ...person!, emails: [{ address, firstSeen: '2020-01-02', lastSeen: '2021-03-04' }] };
    await importFile(scratchFile('hash.jsonl', jsonl([record])));
    const rows = await query<{ address: string; md5: string; sha256: string }>(
      database,
      'select address, md5, sha256 from person_emails where identity_id = $1',
      [record.id],
    );
    expect(rows).toEqual([
      {
        address,
        md5: createHash('md5').update(address).digest('hex'),
        sha256: createHash('sha256').update(address).digest('hex'),
      },
    ]);
    expect(rows[0]!.md5).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('moves the previous address to person_addresses and numbers properties and companies', async () => {
    const [person] = generatedPeople(1, 'import-prev', ownIdBase());
    const record: IdentityRecord = {
      ...person!,
      firstSeen: '2001-02-03',
      lastSeen: '2026-09-30',
      properties: [
        { type: 'Condominium', value: 100, ownerOccupied: true, firstSeen: '2010-01-01', lastSeen: '2011-01-01' },
        { type: 'Townhouse', value: null, ownerOccupied: false, firstSeen: '2012-01-01', lastSeen: '2013-01-01' },
      ],
      companies: [
        { name: 'A Co', domain: 'a.example', title: 'Clerk', firstSeen: '2010-01-01', lastSeen: '2011-01-01' },
        { name: 'B Co', domain: 'b.example', title: 'Chief', firstSeen: '2012-01-01', lastSeen: '2013-01-01' },
      ],
      data: {
        maritalStatus: 'Single',
        previousAddress: '8501 Holly Rd',
        previousCity: 'Spartanburg',
        previousState: 'SC',
        previousZip: '29382',
      },
    };
    await importFile(scratchFile('prev.jsonl', jsonl([record])));
    const addresses = await query(
      database,
      `select seq, address, city, state, zip, zip4, first_seen::text, last_seen::text
       from person_addresses where identity_id = $1`,
      [record.id],
    );
    expect(addresses).toEqual([
      {
        seq: 1,
        address: '8501 Holly Rd',
        city: 'Spartanburg',
        state: 'SC',
        zip: '29382',
        zip4: '',
        first_seen: '2001-02-03',
        last_seen: '2026-09-30',
      },
    ]);
    const data = await query(database, 'select key, value, first_seen::text from person_data where identity_id = $1', [
      record.id,
    ]);
    expect(data).toEqual([{ key: 'maritalStatus', value: 'Single', first_seen: '2001-02-03' }]);
    const properties = await query(
      database,
      'select seq, type from person_properties where identity_id = $1 order by seq',
      [record.id],
    );
    expect(properties).toEqual([
      { seq: 1, type: 'Condominium' },
      { seq: 2, type: 'Townhouse' },
    ]);
    const companies = await query(
      database,
      'select seq, name from person_companies where identity_id = $1 order by seq',
      [record.id],
    );
    expect(companies).toEqual([
      { seq: 1, name: 'A Co' },
      { seq: 2, name: 'B Co' },
    ]);
  });

  it('reports bad rows with file, line and reason and loads the good ones', async () => {
    const base = ownIdBase();
    const [a, b, c, d, e, f, g] = generatedPeople(7, 'import-bad', base);
    const vehicle = { vin: '1N4THFCH7NK820376', year: 2022, make: 'Nissan', model: 'Rogue', ...dates };
    const lines = [
      JSON.stringify(a),
      '{"id": 1, "firstName": ',
      JSON.stringify({ ...b, gender: 'X' }),
      JSON.stringify({ ...c, vehicles: [{ ...vehicle, vin: '1N4THFCH8NK820376' }] }),
      '',
      JSON.stringify({ ...d, phones: [{ ...phone, number: '555-0123' }] }),
      JSON.stringify({ ...e, ips: [{ ip: '300.1.2.3', ...dates }] }),
      JSON.stringify({ ...f, lastSeen: '2021-02-30' }),
      JSON.stringify({ ...g, emails: [email, email] }),
      JSON.stringify({ ...b, vehicles: [vehicle] }),
    ];
    const file = scratchFile('mixed.jsonl', `${lines.join('\n')}\n`);
    const result = await importFile(file);
    expect(result).toMatchObject({ loaded: 2, rejected: 7 });
    expect(result.rejects.map((r) => [r.file, r.line])).toEqual([
      [file, 2],
      [file, 3],
      [file, 4],
      [file, 6],
      [file, 7],
      [file, 8],
      [file, 9],
    ]);
    const reasons = result.rejects.map((r) => r.reason);
    expect(reasons[0]).toMatch(/^not JSON: /);
    expect(reasons[1]).toMatch(/^gender: /);
    expect(reasons[2]).toBe('vehicles.0.vin: check digit does not match: "1N4THFCH8NK820376"');
    expect(reasons[3]).toMatch(/^phones\.0\.number: /);
    expect(reasons[4]).toMatch(/^ips\.0\.ip: /);
    expect(reasons[5]).toBe('lastSeen: not a calendar day: "2021-02-30"');
    expect(reasons[6]).toBe(`e-mail address listed twice: "${email.address}"`);
    expect((await countsFor(database, [a!.id, b!.id])).people).toBe(2);
    expect((await countsFor(database, [c!.id, d!.id, e!.id, f!.id, g!.id])).people).toBe(0);
  });

  it('rolls a failing batch back completely, then loads its good people one by one', async () => {
    const people = generatedPeople(6, 'import-rollback', ownIdBase());
    const ids = people.map((p) => p.id);
    // The schema allows any text; only the database refuses a NUL character, and only after earlier rows of the
    // batch (people, and the linked tables before behaviors) have been written.
    const bad = { ...people[5]!, behaviors: [{ category: 'Interests', name: 'Fish\u0000ing', ...dates }] };
    const batch = [...people.slice(0, 5), bad];
    await expect(writeBatch(database, batch)).rejects.toThrow();
    expect(Object.values(await countsFor(database, ids)).every((n) => n === 0)).toBe(true);

    const rejects: Reject[] = [];
    const rows: SourceRow[] = batch.map((record, i) => ({ file: 'f.jsonl', line: i + 1, bytes: 0, record }));
    const summary = await importRows(database, rows, { onReject: (r) => rejects.push(r) });
    expect(summary).toMatchObject({ loaded: 5, rejected: 1 });
    expect(rejects).toEqual([{ file: 'f.jsonl', line: 6, reason: expect.stringMatching(/^database: /) }]);
    expect(await countsFor(database, ids.slice(0, 5))).toEqual(expectedCounts(people.slice(0, 5)));
    expect((await countsFor(database, [bad.id])).people).toBe(0);
  });
});

const dates = { firstSeen: '2020-01-01', lastSeen: '2021-01-01' };
const email = { address: 'dup@example.org', ...dates };
const phone = { number: '+14155550123', type: 'mobile' as const, carrier: 'X', doNotCall: false, ...dates };

describe('importing CSV', () => {
  it('maps scalar columns, numbered linked records, finances and data onto the record', async () => {
    const base = ownIdBase();
    const header = [
      'id',
      'firstName',
      'lastName',
      'gender',
      'birthYear',
      'address',
      'city',
      'state',
      'zip',
      'firstSeen',
      'lastSeen',
      'emails.0.address',
      'emails.1.address',
      'emails.1.firstSeen',
      'phones.0.number',
      'phones.0.type',
      'phones.0.doNotCall',
      'vehicles.0.vin',
      'vehicles.0.year',
      'finances.income',
      'data.maritalStatus',
      'data.previousAddress',
    ];
    const rows = [
      [
        base + 1,
        'Ann',
        'Lee',
        'F',
        '1980',
        '1 Oak St, Apt 2',
        'Austin',
        'TX',
        '78701',
        '2010-01-01',
        '2026-01-01',
        'ann@example.org',
        'ann.lee@example.org',
        '2015-05-05',
        '+15125550100',
        'mobile',
        'true',
        '1N4THFCH7NK820376',
        '2022',
        '$50K-$75K',
        'Married',
        '9 "Old" Rd',
      ],
      [
        base + 2,
        'Bo',
        'Chen',
        '',
        '',
        '2 Elm St',
        'Waco',
        'TX',
        '76701',
        '2011-01-01',
        '2026-01-01',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      [
        base + 3,
        'Cy',
        'Bad',
        '',
        'nineteen',
        '',
        '',
        '',
        '',
        '2011-01-01',
        '2026-01-01',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ];
    const text = [header, ...rows].map((r) => r.map((v) => csvField(String(v))).join(',')).join('\r\n');
    const file = scratchFile('people.csv', `${text}\r\n${base + 4},too,few\r\n`);
    const result = await importFile(file);
    expect(result).toMatchObject({ loaded: 2, rejected: 2 });
    expect(result.rejects).toEqual([
      { file, line: 4, reason: expect.stringMatching(/^birthYear: /) },
      { file, line: 5, reason: `3 fields; the header has ${header.length}` },
    ]);
    const [ann] = await query<Record<string, unknown>>(
      database,
      'select first_name, birth_year, address, city from people where id = $1',
      [base + 1],
    );
    expect(ann).toEqual({ first_name: 'Ann', birth_year: 1980, address: '1 Oak St, Apt 2', city: 'Austin' });
    const emails = await query(
      database,
      'select address, first_seen::text from person_emails where identity_id = $1 order by address',
      [base + 1],
    );
    expect(emails).toEqual([
      { address: 'ann.lee@example.org', first_seen: '2015-05-05' },
      { address: 'ann@example.org', first_seen: '2010-01-01' },
    ]);
    const [phoneRow] = await query(database, 'select number, do_not_call from person_phones where identity_id = $1', [
      base + 1,
    ]);
    expect(phoneRow).toEqual({ number: '+15125550100', do_not_call: true });
    const [previous] = await query(database, 'select address from person_addresses where identity_id = $1', [base + 1]);
    expect(previous).toEqual({ address: '9 "Old" Rd' });
    expect(await countsFor(database, [base + 1])).toMatchObject({
      person_vehicles: 1,
      person_finances: 1,
      person_data: 1,
    });
    expect(await countsFor(database, [base + 2])).toMatchObject({ people: 1, person_emails: 0, person_finances: 0 });
  });

  it('refuses a header with an unknown column, skipping the file', async () => {
    const file = scratchFile('odd.csv', 'id,firstName,favouriteColour\n1,Ann,blue\n');
    const result = await importFile(file);
    expect(result).toMatchObject({ loaded: 0, rejected: 1 });
    expect(result.rejects).toEqual([
      { file, line: 1, reason: 'header: unknown column "favouriteColour"; file skipped' },
    ]);
  });
});

/** The same people under another id base. */
const moved = (people: IdentityRecord[], from: number, to: number) =>
  people.map((p) => ({ ...p, id: p.id - from + to }));

describe('re-importing', () => {
  it('leaves a batch of people already there and new ones exactly as a first load of the same rows would', async () => {
    const base = ownIdBase();
    const people = generatedPeople(60, 'import-mixed', base);
    await importFile(scratchFile('first.jsonl', jsonl(people.slice(0, 40))));

    // 0-19 untouched, 20-29 sent again unchanged, 30-39 changed, 40-59 new; one batch holds all three kinds.
    const later = people.slice(20).map((p, i) => {
      if (i < 10) return p;
      if (i >= 20) return p;
      if (i % 3 === 0) {
        return {
          ...p,
          emails: p.emails.map((e) => ({ ...e, lastSeen: '2026-10-01' })),
          phones: [],
          finances: null,
          data: { ...p.data, language: 'Welsh' },
        };
      }
      if (i % 3 === 1) return { ...p, firstName: 'Changed', ips: [{ ip: '203.0.113.9', ...dates }], behaviors: [] };
      return { ...p, vehicles: [], companies: [{ name: 'New Co', domain: 'new.example', title: 'Owner', ...dates }] };
    });
    const again = await importFile(scratchFile('again.jsonl', jsonl(later)), 500);
    expect(again).toMatchObject({ loaded: 40, rejected: 0 });

    const fresh = ownIdBase();
    const final = [...people.slice(0, 20), ...later];
    await importFile(scratchFile('fresh.jsonl', jsonl(moved(final, base, fresh))), 500);
    const now = await tableContents(database, base, 60);
    expect(now).toEqual(await tableContents(database, fresh, 60));
    expect(now.people).toHaveLength(60);
    expect(now.person_data!.some((r) => r.includes('"Welsh"'))).toBe(true);
  });

  it('writes batches in order, so a person listed again in a later batch ends as the later row says', async () => {
    const [a, b] = generatedPeople(2, 'import-order', ownIdBase());
    const rows = [a!, b!, { ...a!, firstName: 'Second' }, b!, { ...a!, firstName: 'Third', emails: [] }];
    const result = await importFile(scratchFile('order.jsonl', jsonl(rows)), 1);
    expect(result).toMatchObject({ loaded: 5, rejected: 0 });
    const [row] = await query<{ first_name: string }>(database, 'select first_name from people where id = $1', [a!.id]);
    expect(row!.first_name).toBe('Third');
    expect((await countsFor(database, [a!.id])).person_emails).toBe(0);
  });

  it('rejects one ip written two ways (one inet to the database), on a first load and on a re-import', async () => {
    const [a, b] = generatedPeople(2, 'import-ip-twice', ownIdBase());
    const one = { ip: '::1', ...dates };
    const two = { ip: '0::1', ...dates };
    const first = await importFile(
      scratchFile(
        'ips.jsonl',
        jsonl([
          { ...a!, ips: [one] },
          { ...b!, ips: [one, two] },
        ]),
      ),
    );
    expect(first).toMatchObject({ loaded: 1, rejected: 1 });
    expect(first.rejects).toEqual([
      { file: expect.any(String), line: 2, reason: expect.stringMatching(/^database: /) },
    ]);

    const again = await importFile(scratchFile('ips.jsonl', jsonl([{ ...a!, firstName: 'Twice', ips: [one, two] }])));
    expect(again).toMatchObject({ loaded: 0, rejected: 1 });
    const rows = await query<{ first_name: string }>(database, 'select first_name from people where id = $1', [a!.id]);
    expect(rows).toEqual([{ first_name: a!.firstName }]);
    expect((await countsFor(database, [a!.id])).person_ips).toBe(1);
  });
});

describe('values that COPY must escape', () => {
  const TRICKY = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn\r\n',
    'back\\slash',
    'ends in a backslash\\',
    '\\N',
    '\\.',
    '\\t not a tab',
    'quotes "double" and \'single\'',
    'Zoë Łódź 李小龍 🙂 e\u0301',
    '\t\n\r\\',
    ' ',
  ];

  async function textOf(id: number) {
    const [person] = await query<Record<string, string>>(
      database,
      'select first_name, last_name, address, city from people where id = $1',
      [id],
    );
    const behaviors = await query<{ name: string }>(
      database,
      'select name from person_behaviors where identity_id = $1',
      [id],
    );
    const data = await query<{ key: string; value: string }>(
      database,
      'select key, value from person_data where identity_id = $1',
      [id],
    );
    return {
      person,
      behaviors: behaviors.map((b) => b.name).sort(),
      data: Object.fromEntries(data.map((d) => [d.key, d.value])),
    };
  }

  const withText = (p: IdentityRecord, shift: number): IdentityRecord => {
    const at = (i: number) => TRICKY[(i + shift) % TRICKY.length]!;
    return {
      ...p,
      firstName: at(0),
      lastName: at(1),
      address: at(2),
      city: at(3),
      behaviors: TRICKY.map((name) => ({ category: 'Interests', name: `${name}${shift}`, ...dates })),
      data: Object.fromEntries(TRICKY.map((value, i) => [`${at(i)}key${i}`, value])),
    };
  };

  it('stores tabs, newlines, backslashes, quotes and non-ASCII text exactly, on a first load and a re-import', async () => {
    const [person] = generatedPeople(1, 'import-escape', ownIdBase());
    for (const shift of [0, 5]) {
      const record = withText(person!, shift);
      const result = await importFile(scratchFile('escape.jsonl', jsonl([record])));
      expect(result).toMatchObject({ loaded: 1, rejected: 0 });
      expect(await textOf(record.id)).toEqual({
        person: {
          first_name: record.firstName,
          last_name: record.lastName,
          address: record.address,
          city: record.city,
        },
        behaviors: record.behaviors.map((b) => b.name).sort(),
        data: record.data,
      });
    }
  });

  it('rejects text holding half of a surrogate pair, which the database cannot store', async () => {
    const [a, b, c] = generatedPeople(3, 'import-surrogate', ownIdBase());
    const lines = [
      JSON.stringify({ ...a!, firstName: 'Half \ud800 pair' }),
      JSON.stringify({ ...b!, behaviors: [{ category: 'Interests', name: 'x\udc00', ...dates }] }),
      JSON.stringify(c),
    ];
    const result = await importFile(scratchFile('surrogate.jsonl', `${lines.join('\n')}\n`));
    expect(result).toMatchObject({ loaded: 1, rejected: 2 });
    expect(result.rejects.map((r) => [r.line, r.reason.slice(0, 10)])).toEqual([
      [1, 'database: '],
      [2, 'database: '],
    ]);
    expect((await countsFor(database, [a!.id, b!.id, c!.id])).people).toBe(1);
  });
});
