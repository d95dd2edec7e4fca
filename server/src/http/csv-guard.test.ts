/**
 * Issue 28 finding 11: one formula guard (http/csv.ts) for every CSV the product writes. Each CSV endpoint is sent
 * cells a spreadsheet would run (=, @, TAB, |, + or - before letters, full-width forms, after leading spaces) and
 * cells it would not (a signed number or phone number, decision 0025), from where each endpoint's text comes from:
 * an organization's name (invoice), a contact-form message and a column name (query console), a key id (usage
 * calls), a template's output (template preview) and a person's record (segment export).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { emptyMetrics } from '@tessera/common/usage';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardFormula as lookupGuard } from '../features/identities/csv-output';
import { load, person } from '../features/identities/test-people';
import { closeMonth } from '../features/invoices/repo';
import { confirmedRoot } from '../features/query-console/test-support';
import { writeUsage } from '../features/usage/metering';
import { consoleClient } from '../test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeAccount,
  makeContract,
  makeCustomer,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
} from '../test/harness';
import { guardFormula, stringify, stringifyRows } from './csv';

/** Cells a spreadsheet would run as formulas: each must come out with a leading apostrophe. */
const RISKY = [
  '=HYPERLINK("http://x.example","y")',
  '@SUM(1)',
  '\t=1',
  '\r=1',
  '|calc',
  '+cmd|/C calc!A0',
  '-1+cmd|x!A0',
  ' =1+1',
  '\u00a0=HYPERLINK("x")',
  '\uff1d1+1',
  '\uff0bcmd',
  '\uff0d1+cmd',
  '\uff20SUM(1)',
];
/** Signed numbers and phone numbers: nothing callable, left as they are. */
const PLAIN = ['+1', '-1+1', '+1 (415) 555-0100', '-12.5', 'plain', 'a=b'];
const ALL = [...RISKY, ...PLAIN];
const guarded = (cell: string) => (RISKY.includes(cell) ? `'${cell}` : cell);

let t: TestApp;
let superCookie: string;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  t = await buildTestApp();
  superCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

const rowsOf = (csv: string) => parse(csv, { relax_quotes: false }) as string[][];

describe('the formula guard', () => {
  it('guards what a spreadsheet would run and leaves signed numbers alone, as the lookup CSV does', async () => {
    for (const cell of ALL) expect(guardFormula(cell), JSON.stringify(cell)).toBe(guarded(cell));
    // The lookup CSV's own copy agrees on every case until it imports this one.
    for (const cell of ALL) expect(lookupGuard(cell), JSON.stringify(cell)).toBe(guardFormula(cell));
    expect(rowsOf(stringifyRows([['head'], ...ALL.map((c) => [c])])).slice(1)).toEqual(ALL.map((c) => [guarded(c)]));
    const out = stringify({ header: true, columns: ['=cell'] });
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    for (const cell of ALL) out.write([cell]);
    out.end();
    await new Promise((resolve) => out.on('end', resolve));
    expect(rowsOf(chunks.join(''))).toEqual([["'=cell"], ...ALL.map((c) => [guarded(c)])]);
  });
});

describe('every CSV endpoint guards its cells', () => {
  it('GET /v2/invoices/{id}.csv: organization names set by an administrator', async () => {
    const month = '1990-03';
    const suffix = ` ${randomInt(1e5, 1e6)}`; // digits only: a plain number stays plain
    const orgs = [];
    for (const cell of ALL) {
      const org = await makeOrganization(t.database, `${cell}${suffix}`);
      await makeContract(t.database, org.id, {
        startsAt: new Date(Date.UTC(1989, 0, 1)),
        endsAt: new Date(Date.UTC(1991, 0, 1)),
      });
      const event = {
        requestId: randomUUID(),
        userId: (await makeAccount(t.database, 'user', org.id)).id,
        organizationId: org.id,
        keyId: 'k',
        method: 'GET',
        path: '/byEmail',
        status: 200,
        metrics: { ...emptyMetrics(), inputs: 1 },
        costMicros: 0,
      };
      await writeUsage(t.database, [event], new Date(Date.UTC(1990, 2, 10)));
      orgs.push({ org, cell });
    }
    await closeMonth(t.database, month);
    for (const { org, cell } of orgs) {
      const { invoices } = (await api.get(`/v2/invoices?month=${month}&organizationId=${org.id}`, superCookie)).json();
      const csv = await api.get(`/v2/invoices/${invoices[0].id}.csv`, superCookie);
      expect(csv.statusCode).toBe(200);
      const rows = rowsOf(csv.body);
      const column = rows[0]!.indexOf('organization');
      for (const row of rows.slice(1)) expect(row[column], JSON.stringify(cell)).toBe(guarded(cell) + suffix);
    }
  });

  it('POST /v2/query/csv: a contact-form message, literal cells and a column name', async () => {
    const { cookie } = await confirmedRoot(t);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v2/contact',
      headers: CONSOLE_HEADERS,
      payload: { name: 'Eve', email: `eve.${randomUUID().slice(0, 8)}@example.com`, message: RISKY[0] },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().contactSent.id;
    const message = await api.post('/v2/query/csv', cookie, {
      cluster: 'main',
      sql: `select message as "=cmd" from contact_messages where id = ${id}`,
    });
    expect(message.statusCode, message.body).toBe(200);
    expect(rowsOf(message.body)).toEqual([["'=cmd"], [guarded(RISKY[0]!)]]);

    const literal = (cell: string) => `('${cell.replaceAll("'", "''")}', ${ALL.indexOf(cell)})`;
    const values = await api.post('/v2/query/csv', cookie, {
      cluster: 'main',
      sql: `select cell from (values ${ALL.map(literal).join(', ')}) v(cell, n) order by n`,
    });
    expect(values.statusCode, values.body).toBe(200);
    expect(rowsOf(values.body)).toEqual([['cell'], ...ALL.map((c) => [guarded(c)])]);
  });

  it('GET /v2/usage/calls.csv: every text column of a call', async () => {
    const org = await makeOrganization(t.database);
    const userId = (await makeAccount(t.database, 'user', org.id)).id;
    const at = new Date();
    for (const cell of ALL) {
      const event = {
        requestId: randomUUID(),
        userId,
        organizationId: org.id,
        keyId: cell,
        method: 'GET',
        path: '/byEmail',
        status: 200,
        metrics: emptyMetrics(),
        costMicros: 0,
      };
      await writeUsage(t.database, [event], at);
    }
    const from = new Date(at.getTime() - 60_000).toISOString();
    const to = new Date(at.getTime() + 60_000).toISOString();
    const query = new URLSearchParams({ organizationId: String(org.id), from, to });
    const res = await api.get(`/v2/usage/calls.csv?${query}`, superCookie);
    expect(res.statusCode, res.body).toBe(200);
    const rows = rowsOf(res.body);
    const column = rows[0]!.indexOf('keyId');
    expect(
      rows
        .slice(1)
        .map((r) => r[column])
        .sort(),
    ).toEqual(ALL.map(guarded).sort());
  });

  it('POST /v2/templates/preview as CSV: a template’s output', async () => {
    const expression = `{${ALL.map((c, i) => `"c${i}": ${JSON.stringify(c)}`).join(', ')}}`;
    const res = await api.post('/v2/templates/preview', superCookie, { expression, format: 'csv' });
    expect(res.statusCode, res.body).toBe(200);
    const [header, row] = rowsOf(res.json().preview.csv);
    expect(ALL.map((_, i) => row![header!.indexOf(`c${i}`)])).toEqual(ALL.map(guarded));
  });

  it('GET /v2/segments/{id}/export.csv: people’s records', async () => {
    const customer = await makeCustomer(t.database, 'user');
    const company = `Guard ${randomUUID()}`;
    const seen = { firstSeen: '2024-01-01', lastSeen: '2025-06-01' };
    const people = RISKY.map((cell) =>
      person({ middleName: cell, companies: [{ name: company, domain: 'example.com', title: 'X', ...seen }] }),
    );
    await load(t.database, ...people);
    const created = await api.post('/v2/segments', superCookie, {
      name: 'Guarded',
      filters: { companies: [company] },
      organizationIds: [customer.organizationId],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = Object.keys(created.json().segments)[0];
    const res = await api.get(`/v2/segments/${id}/export.csv`, await signIn(t.app, customer.email));
    expect(res.statusCode, res.body).toBe(200);
    const rows = rowsOf(res.body);
    const [idColumn, column] = [rows[0]!.indexOf('id'), rows[0]!.indexOf('middleName')];
    const byId = new Map(rows.slice(1).map((r) => [Number(r[idColumn]), r[column]]));
    for (const p of people) expect(byId.get(p.id), JSON.stringify(p.middleName)).toBe(guarded(p.middleName));
  });
});
