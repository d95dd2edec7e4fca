import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { identityRecordJsonSchema, identityRecordSchema } from './record';

const SCHEMA_FILE = path.join(REPO_ROOT, 'docs/identity-record.schema.json');

describe('identity record schema', () => {
  it('is published as JSON Schema in docs/ (UPDATE_SCHEMA=1 rewrites the file after a change)', async () => {
    const expected = identityRecordJsonSchema();
    if (process.env.UPDATE_SCHEMA === '1') await writeFile(SCHEMA_FILE, `${JSON.stringify(expected, null, 2)}\n`);
    // compared as data: the formatter may lay the file out its own way
    expect(JSON.parse(await readFile(SCHEMA_FILE, 'utf8'))).toEqual(expected);
  });

  it('rejects records that break the documented shapes', () => {
    const good = {
      id: 1,
      firstName: 'Ann',
      middleName: '',
      lastName: 'Lee',
      suffix: '',
      gender: 'F',
      birthYear: 1980,
      address: '1 Main St',
      city: 'Boston',
      state: 'MA',
      zip: '02118',
      zip4: '',
      firstSeen: '2020-01-01',
      lastSeen: '2026-01-01',
      emails: [{ address: 'ann@example.com', firstSeen: '2020-01-01', lastSeen: '2026-01-01' }],
      phones: [],
      ips: [{ ip: '2601:1c0:1:2:3:4:5:6', firstSeen: '2020-01-01', lastSeen: '2026-01-01' }],
      devices: [],
      vehicles: [],
      properties: [],
      finances: null,
      companies: [],
      behaviors: [],
      data: { maritalStatus: 'Single' },
    };
    expect(identityRecordSchema.safeParse(good).success).toBe(true);
    const bad = (patch: object) => identityRecordSchema.safeParse({ ...good, ...patch }).success;
    expect(bad({ gender: 'X' })).toBe(false);
    expect(bad({ zip: '1234' })).toBe(false);
    expect(bad({ firstSeen: '2020-1-1' })).toBe(false);
    expect(bad({ emails: [{ address: 'Ann@Example.com', firstSeen: '2020-01-01', lastSeen: '2026-01-01' }] })).toBe(
      false,
    );
    expect(bad({ ips: [{ ip: '300.1.1.1', firstSeen: '2020-01-01', lastSeen: '2026-01-01' }] })).toBe(false);
    expect(bad({ extra: 1 })).toBe(false);
  });
});
