/** PII lookups (byPii, byAny): blocking finds the person through the usual slips; the model scores and ranks. */
import { randomInt } from 'node:crypto';
import { LOOKUP_LIMITS, PII_MESSAGES } from '@tessera/common/lookups';
import { describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import type { TestApp } from '../../test/harness';
import { signedInCustomer } from './test-caller';
import { load, person, suppress, uniqueZip } from './test-people';

let t: TestApp;
let cookie: string;
const api = consoleClient(() => t.app);
signedInCustomer((app, signedIn) => {
  t = app;
  cookie = signedIn;
});

const byPii = (q: Record<string, string>) => api.get(`/v2/identities/byPii?${new URLSearchParams(q)}`, cookie);
const ids = (res: { json(): { identities: { id: number }[] } }) => res.json().identities.map((i) => i.id);
// Zip codes no other test file uses, so candidates are only this file's people.

describe('PII lookups', () => {
  it('finds a person through a nickname, a typo, an abbreviated street and a missing unit', async () => {
    const z = uniqueZip();
    const p = person({ firstName: 'Robert', lastName: 'Kowalczyk', address: '1234 North Oak Street Apt 4', zip: z });
    const neighbour = person({ firstName: 'Robert', lastName: 'Kowalski', address: '1236 North Oak Street', zip: z });
    await load(t.database, p, neighbour);
    const res = await byPii({
      firstName: 'bob',
      lastName: 'Kowalcyzk',
      address: '1234 N Oak St',
      city: 'Springfield',
      state: 'il',
      zip: z,
    });
    expect(res.statusCode).toBe(200);
    const [best] = res.json().identities;
    expect(best.id).toBe(p.id);
    expect(best.score).toBeGreaterThanOrEqual(50);
    expect(best.matchedOn).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'address', 'city', 'state', 'zip']),
    );
  });

  it('finds a person by the address they lived at before, and by swapped names', async () => {
    const z = uniqueZip();
    const old = uniqueZip();
    const p = person({
      firstName: 'Margaret',
      lastName: 'Oyelaran',
      zip: z,
      data: { previousAddress: '77 Elm Avenue', previousCity: 'Shelbyville', previousState: 'IL', previousZip: old },
    });
    await load(t.database, p);
    const stale = await byPii({
      firstName: 'Margaret',
      lastName: 'Oyelaran',
      address: '77 Elm Ave',
      city: 'Shelbyville',
      state: 'IL',
      zip: old,
    });
    expect(ids(stale)).toEqual([p.id]);
    const swapped = await byPii({
      firstName: 'Oyelaran',
      lastName: 'Margaret',
      address: p.address,
      state: 'IL',
      zip: z,
    });
    expect(ids(swapped)[0]).toBe(p.id);
  });

  it('searches the state when the zip is missing', async () => {
    const p = person({
      firstName: 'Theodora',
      lastName: `Quillfeather${Math.floor(Math.random() * 1e6)}`,
      state: 'WY',
      zip: uniqueZip(),
    });
    await load(t.database, p);
    const res = await byPii({
      firstName: 'Theodora',
      lastName: p.lastName,
      address: p.address,
      city: p.city,
      state: 'WY',
    });
    expect(ids(res)).toEqual([p.id]);
  });

  it('without a zip, finds a person whose last name is mistyped out of its sound by their house in the state', async () => {
    const p = person({
      firstName: 'Wilhelmina',
      lastName: 'Thornquist',
      state: 'VT',
      city: 'Burlington',
      zip: uniqueZip(),
    });
    await load(t.database, p);
    const typo = 'Rhornquist';
    const [sounds] = await t.database.query<{ same: boolean }>('select dmetaphone($1) = dmetaphone($2) as same', [
      p.lastName,
      typo,
    ]);
    expect(sounds!.same).toBe(false);
    const q = { firstName: 'Wilhelmina', lastName: typo, address: p.address, city: 'Burlington', state: 'VT' };
    expect(ids(await byPii(q))).toEqual([p.id]);
    // Another house number in the state, and no name sounding alike: nobody.
    const elsewhere = `${Number(p.address.split(' ')[0]) + 1} North Oak Street`;
    expect(ids(await byPii({ ...q, address: elsewhere }))).toEqual([]);
  });

  it('explains each field, filters by minScore and orders by score', async () => {
    const z = uniqueZip();
    const p = person({ firstName: 'Eleanor', lastName: 'Vasquez', zip: z });
    // Same last name and zip, another first name, street and city: the model thinks it unlikely.
    const weak = person({
      firstName: 'Elena',
      lastName: 'Vasquez',
      address: '5 Other Road',
      city: 'Elsewhere',
      zip: z,
    });
    await load(t.database, p, weak);
    const q = { firstName: 'Eleanor', lastName: 'Vasquez', address: p.address, city: p.city, state: 'IL', zip: z };
    const res = await byPii({ ...q, explain: 'true', minScore: '0' });
    const identities = res.json().identities;
    expect(identities.map((i: { id: number }) => i.id)).toEqual([p.id, weak.id]);
    expect(identities[0].score).toBeGreaterThanOrEqual(identities[1].score);
    expect(identities[0].explain.pii).toMatchObject({ home: 'current', swapped: false });
    expect(identities[0].explain.pii.fields.street).toMatchObject({ level: 'exact' });
    expect(identities[0].explain.pii.fields.street.weight).toBeGreaterThan(0);
    expect(identities[1].explain.pii.fields.street).toMatchObject({ level: 'different' });
    expect(identities[1].score).toBeLessThan(50);
    expect(ids(await byPii(q))).toEqual([p.id]);
    expect(ids(await byPii({ ...q, minScore: String(identities[1].score) }))).toEqual([p.id, weak.id]);
  });

  it('finds the person in a crowded ZIP where more people share a sound of their name than a block holds', async () => {
    const z = uniqueZip();
    // More Roberts in the ZIP than the block's cap, all stored before the one wanted.
    const crowd = Array.from({ length: LOOKUP_LIMITS.piiCandidates + 40 }, (_, n) =>
      person({ firstName: 'Robert', address: `${100 + n} Birch Road`, zip: z }),
    );
    const p = person({ firstName: 'Robert', lastName: 'Quentinworth', address: '4518 Larkspur Lane', zip: z });
    await load(t.database, ...crowd, p);
    const q = { firstName: 'Robert', lastName: 'Quentinworth', address: '4518 Larkspur Ln', state: 'IL', zip: z };
    expect(ids(await byPii(q))[0]).toBe(p.id);
    // A last name mistyped out of its sound still finds them by their house in the crowded ZIP.
    expect(ids(await byPii({ ...q, lastName: 'Zentinworth' }))[0]).toBe(p.id);
  });

  it('does not answer a namesake in another place', async () => {
    const z = uniqueZip();
    const p = person({ firstName: 'Ingrid', lastName: 'Halvorsen', zip: uniqueZip() });
    await load(t.database, p);
    const res = await byPii({
      firstName: 'Ingrid',
      lastName: 'Halvorsen',
      address: '900 Unrelated Blvd',
      city: 'Otherton',
      state: 'IL',
      zip: z,
    });
    expect(ids(res)).toEqual([]);
  });

  it('never finds a suppressed person, exactly as if unknown', async () => {
    const z = uniqueZip();
    const p = person({ firstName: 'Cornelius', lastName: 'Abernathy', zip: z });
    await load(t.database, p);
    const q = { firstName: 'Cornelius', lastName: 'Abernathy', address: p.address, state: 'IL', zip: z };
    expect(ids(await byPii(q))).toEqual([p.id]);
    await suppress(t.database, 'identity', String(p.id));
    const res = await byPii(q);
    expect(res.statusCode).toBe(200);
    expect(res.json().identities).toEqual([]);
  });

  it('combines an exact key with PII in byAny', async () => {
    const z = uniqueZip();
    const p = person({ firstName: 'Lucinda', lastName: 'Marchetti', zip: z });
    await load(t.database, p);
    const q = new URLSearchParams({
      email: p.emails[0]!.address,
      firstName: 'Lucinda',
      lastName: 'Marchetti',
      address: p.address,
      state: 'IL',
      zip: z,
    });
    const [identity] = (await api.get(`/v2/identities/byAny?${q}&explain=true`, cookie)).json().identities;
    expect(identity.id).toBe(p.id);
    expect(identity.score).toBe(100);
    expect(identity.matchedOn).toEqual(expect.arrayContaining(['email', 'firstName', 'lastName', 'address', 'zip']));
    expect(identity.explain.keys).toHaveLength(1);
    expect(identity.explain.pii.weight).toBeGreaterThan(0);
  });

  describe('nationwide (a street address without zip, city or state)', () => {
    // A street name no other test uses, so the house-number-and-street block holds only this file's people.
    const street = () => `Quenby${randomInt(1e9)}`;

    it('finds the person in whichever state they live or lived, through a suffix, unit and case', async () => {
      const [a, b] = [street(), street()];
      const wy = person({
        firstName: 'Rosalind',
        lastName: 'Fairweather',
        address: `4821 ${a} Lane Apt 2`,
        state: 'WY',
        city: 'Casper',
        zip: uniqueZip(),
      });
      const fl = person({
        firstName: 'Rosalind',
        lastName: 'Fairweather',
        address: `77 W ${b} Ave`,
        state: 'FL',
        city: 'Tampa',
        zip: uniqueZip(),
      });
      const moved = person({
        firstName: 'Robert',
        lastName: 'Okonkwo',
        state: 'OR',
        zip: uniqueZip(),
        data: {
          previousAddress: `310 ${a} Ct`,
          previousCity: 'Augusta',
          previousState: 'ME',
          previousZip: uniqueZip(),
        },
      });
      await load(t.database, wy, fl, moved);
      const first = await byPii({ firstName: 'ROSALIND', lastName: 'fairweather', address: `4821 ${a} Ln` });
      expect(first.statusCode).toBe(200);
      expect(ids(first)).toEqual([wy.id]);
      expect(first.json().identities[0].matchedOn).toEqual(
        expect.arrayContaining(['firstName', 'lastName', 'address']),
      );
      expect(
        ids(await byPii({ firstName: 'Rosalind', lastName: 'Fairweather', address: `77 West ${b} Avenue` })),
      ).toEqual([fl.id]);
      expect(ids(await byPii({ firstName: 'Robert', lastName: 'Okonkwo', address: `310 ${a} Court` }))).toEqual([
        moved.id,
      ]);
      // a nickname and swapped names still find them; a city without a state is compared, not required
      expect(ids(await byPii({ firstName: 'Fairweather', lastName: 'Rosalind', address: `4821 ${a} Lane` }))).toEqual([
        wy.id,
      ]);
      expect(
        ids(await byPii({ firstName: 'Bob', lastName: 'Okonkwo', address: `310 ${a} Ct`, city: 'Augusta' })),
      ).toEqual([moved.id]);
    });

    it('finds the person when the street is written otherwise, by their house number and the sound of their name', async () => {
      const s = street();
      const p = person({
        firstName: 'Evangeline',
        lastName: 'Thistlewood',
        address: `6120 ${s} Blvd`,
        state: 'NM',
        zip: uniqueZip(),
      });
      await load(t.database, p);
      // a typo in the street name: another house-and-street key, the same house number and name sound
      const typo = `6120 ${s.replace('Quenby', 'Quennby')} Blvd`;
      expect(ids(await byPii({ firstName: 'Evangeline', lastName: 'Thistlewood', address: typo }))).toEqual([p.id]);
    });

    it('does not answer a common name at a house number where it does not live', async () => {
      const s = street();
      const smith = person({
        firstName: 'James',
        lastName: 'Smith',
        address: `512 ${s} Rd`,
        state: 'TX',
        zip: uniqueZip(),
      });
      // the same common name at the same house number on another street, in another state
      const other = person({
        firstName: 'James',
        lastName: 'Smith',
        address: `513 ${street()} St`,
        state: 'OH',
        zip: uniqueZip(),
      });
      const neighbour = person({
        firstName: 'Patricia',
        lastName: 'Nguyen',
        address: `513 ${s} Rd`,
        state: 'TX',
        zip: uniqueZip(),
      });
      await load(t.database, smith, other, neighbour);
      expect(ids(await byPii({ firstName: 'James', lastName: 'Smith', address: `512 ${s} Rd` }))).toEqual([smith.id]);
      const wrongNumber = await byPii({ firstName: 'James', lastName: 'Smith', address: `513 ${s} Rd` });
      expect(wrongNumber.statusCode).toBe(200);
      expect(ids(wrongNumber)).toEqual([]);
      expect(ids(await byPii({ firstName: 'James', lastName: 'Smith', address: `9513 ${s} Rd` }))).toEqual([]);
    });

    it('never finds a suppressed person', async () => {
      const p = person({
        firstName: 'Cornelius',
        lastName: 'Abernathy',
        address: `88 ${street()} Way`,
        state: 'KS',
        zip: uniqueZip(),
      });
      await load(t.database, p);
      const q = { firstName: 'Cornelius', lastName: 'Abernathy', address: p.address };
      expect(ids(await byPii(q))).toEqual([p.id]);
      await suppress(t.database, 'identity', String(p.id));
      const res = await byPii(q);
      expect(res.statusCode).toBe(200);
      expect(res.json().identities).toEqual([]);
    });

    it('searches a batch of located and nationwide inputs together, each in its own way', async () => {
      const z = uniqueZip();
      const located = person({ firstName: 'Winifred', lastName: 'Ashdown', zip: z });
      const far = person({
        firstName: 'Winifred',
        lastName: 'Ashdown',
        address: `4410 ${street()} Pl`,
        state: 'AK',
        zip: uniqueZip(),
      });
      await load(t.database, located, far);
      const res = await api.post('/v2/identities/byPii', cookie, {
        inputs: [
          { firstName: 'Winifred', lastName: 'Ashdown', address: located.address, zip: z },
          { firstName: 'Winifred', lastName: 'Ashdown', address: far.address },
          { firstName: 'Winifred', lastName: 'Ashdown', address: located.address, state: 'IL' },
        ],
      });
      expect(res.statusCode).toBe(200);
      const results = res.json().results as { identities: { id: number }[] }[];
      expect(results.map((r) => r.identities[0]?.id)).toEqual([located.id, far.id, located.id]);
    });

    it('still needs an address, a zip or a state: a name alone, or with a city only, is refused', async () => {
      const queries: Record<string, string>[] = [
        { firstName: 'Ann', lastName: 'Smith' },
        { firstName: 'Ann', lastName: 'Smith', city: 'Springfield' },
      ];
      for (const q of queries) {
        const res = await byPii(q);
        expect(res.statusCode, JSON.stringify(q)).toBe(400);
        expect(res.json().fields).toContainEqual({ path: 'querystring.zip', message: PII_MESSAGES.place });
      }
      expect(PII_MESSAGES.place).toMatch(/street address/);
    });

    it('needs a house number to search nationwide: a street, a PO box or a number alone would find no one', async () => {
      for (const address of ['Main Street', 'PO Box 12', 'Apt 4']) {
        const res = await byPii({ firstName: 'Ann', lastName: 'Lee', address });
        expect(res.statusCode, address).toBe(400);
        expect(res.json().fields).toContainEqual({ path: 'querystring.address', message: PII_MESSAGES.houseNumber });
      }
      // With a zip or state the address may be written any way: it only raises or lowers the score.
      expect((await byPii({ firstName: 'Ann', lastName: 'Lee', address: 'PO Box 12', state: 'OH' })).statusCode).toBe(
        200,
      );
    });
  });

  it('needs names and a place, valid states and zips', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ lastName: 'Smith', zip: '12345' }, 'querystring.firstName', PII_MESSAGES.names],
      [{ firstName: 'Ann', lastName: 'Smith', city: 'Springfield' }, 'querystring.zip', PII_MESSAGES.place],
      [{ firstName: 'Ann', lastName: 'Smith', state: 'XX' }, 'querystring.state', PII_MESSAGES.state],
      [{ firstName: 'Ann', lastName: 'Smith', zip: '1234' }, 'querystring.zip', PII_MESSAGES.zip],
      [{ firstName: 'A'.repeat(101), lastName: 'Smith', zip: '12345' }, 'querystring.firstName', PII_MESSAGES.tooLong],
      [
        {},
        'querystring.firstName',
        PII_MESSAGES.noInputs('byPii', ['firstName', 'lastName', 'address', 'city', 'state', 'zip']),
      ],
    ];
    for (const [q, path, message] of cases) {
      const res = await byPii(q);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().fields, JSON.stringify(q)).toContainEqual({ path, message });
    }
    const zipPlus4 = await byPii({ firstName: 'Ann', lastName: 'Smith', zip: '12345-6789' });
    expect(zipPlus4.statusCode).toBe(200);
  });
});
