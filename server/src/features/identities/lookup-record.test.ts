/** The lookup record's published schema matches the code, and real lookup results match the schema. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { consoleClient } from '../../test/console-client';
import type { TestApp } from '../../test/harness';
import { lookupRecordJsonSchema, lookupRecordSchema } from './lookup-record';
import { signedInCustomer } from './test-caller';
import { load, person } from './test-people';

const SCHEMA_FILE = path.join(REPO_ROOT, 'docs/lookup-record.schema.json');
let t: TestApp;
let cookie: string;
signedInCustomer((app, signedIn) => {
  t = app;
  cookie = signedIn;
});

describe('lookup record', () => {
  it('is published as JSON Schema in docs/ (UPDATE_SCHEMA=1 rewrites the file after a change)', async () => {
    const expected = lookupRecordJsonSchema();
    if (process.env.UPDATE_SCHEMA === '1') await writeFile(SCHEMA_FILE, `${JSON.stringify(expected, null, 2)}\n`);
    expect(JSON.parse(await readFile(SCHEMA_FILE, 'utf8'))).toEqual(expected);
  });

  it('describes what the Full template returns, with and without linked records', async () => {
    const full = person({
      data: {
        maritalStatus: 'Single',
        previousAddress: '9 Elm St',
        previousCity: 'Aurora',
        previousState: 'IL',
        previousZip: '60505',
      },
    });
    const bare = person({
      emails: [],
      phones: [],
      ips: [],
      devices: [],
      vehicles: [],
      properties: [],
      finances: null,
      companies: [],
      behaviors: [],
      data: {},
      birthYear: null,
    });
    await load(t.database, full, bare);
    for (const p of [full, bare]) {
      const res = await consoleClient(() => t.app).get(`/v2/identities/byId?id=${p.id}`, cookie);
      const { score: _score, matchedOn: _matchedOn, ...record } = res.json().identities[0];
      expect(lookupRecordSchema.safeParse(record).error).toBeUndefined();
    }
  });
});
