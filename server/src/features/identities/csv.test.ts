/** CSV out of GET and POST, and PUT's streamed CSV in and out: columns, rows per identity, bad rows, bad headers. */
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CONSOLE_HEADERS, type TestApp } from '../../test/harness';
import { splitCsv } from '../people/import/csv-fields';
import { CSV_INPUT_MESSAGES, MAX_RECORD_BYTES } from './csv-input';
import { STREAM_BATCH, STREAM_MESSAGES } from './csv-stream';
import { unknownOption } from './options';
import { signedInCustomer } from './test-caller';
import { load, person, uniqueEmail, uniqueIpv6 } from './test-people';

let t: TestApp;
let cookie: string;
signedInCustomer((app, signedIn) => {
  t = app;
  cookie = signedIn;
});

const rowsOf = (text: string) =>
  text
    .split('\r\n')
    .filter(Boolean)
    .map((line) => splitCsv(line)!);
const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  extra: { headers?: Record<string, string>; payload?: unknown } = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { ...CONSOLE_HEADERS, cookie, ...extra.headers },
    payload: extra.payload as string,
  });

describe('CSV', () => {
  it('answers a GET as CSV by format or Accept, with the template columns as dotted paths', async () => {
    const p = person();
    await load(t.database, p);
    const email = p.emails[0]!.address;
    for (const res of [
      await call('GET', `/v2/identities/byEmail?email=${email}&format=csv`),
      await call('GET', `/v2/identities/byEmail?email=${email}`, { headers: { accept: 'text/csv' } }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="byEmail-.+\.csv"$/);
      const [header, row] = rowsOf(res.body);
      expect(header!.slice(0, 5)).toEqual(['input.email', 'score', 'matchedOn', 'id', 'firstName']);
      expect(header).toEqual(expect.arrayContaining(['emails.address', 'finances.income', 'data.maritalStatus']));
      const cell = (name: string) => row![header!.indexOf(name)];
      expect(cell('input.email')).toBe(email);
      expect(cell('score')).toBe('97');
      expect(cell('id')).toBe(String(p.id));
      expect(cell('emails.address')).toBe(email);
      expect(cell('finances.income')).toBe(p.finances!.income);
    }
  });

  it('answers a POST as CSV: a row per identity found, and one for each input that found nobody', async () => {
    const ip = uniqueIpv6();
    const seen = { firstSeen: '2025-01-01', lastSeen: '2026-11-01' };
    const a = person({ ips: [{ ip, ...seen }] });
    const b = person({ ips: [{ ip, ...seen }] });
    await load(t.database, a, b);
    const res = await call('POST', '/v2/identities/byIp', {
      payload: { inputs: [ip, '192.0.2.99'], template: 3, format: 'csv' },
    });
    const [header, ...rows] = rowsOf(res.body);
    expect(header).toEqual(['input.ip', 'score', 'matchedOn', 'id', 'emails']);
    expect(rows.map((r) => r.slice(0, 2))).toEqual([
      [ip, '35'],
      [ip, '35'],
      ['192.0.2.99', ''],
    ]);
    expect(
      rows
        .slice(0, 2)
        .map((r) => Number(r[3]))
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(rows[0]![4]).toBe((rows[0]![3] === String(a.id) ? a : b).emails[0]!.address);
  });

  it('streams a PUT of more rows than a batch back with the columns appended, bad rows marked', async () => {
    const people = Array.from({ length: 30 }, () => person());
    await load(t.database, ...people);
    const lines = ['email,phone'];
    const expected: string[] = [];
    for (let i = 0; i < STREAM_BATCH + 120; i++) {
      const p = people[i % people.length]!;
      if (i === 3) {
        lines.push('"not, an email",');
        expected.push('');
      } else if (i === STREAM_BATCH + 7) {
        lines.push('one,two,three');
        expected.push('');
      } else if (i % 5 === 0) {
        lines.push(`${uniqueEmail()},`);
        expected.push('');
      } else {
        lines.push(`${p.emails[0]!.address.toUpperCase()},"${p.phones[0]!.number}"`);
        expected.push(String(p.id));
      }
    }
    const res = await call('PUT', '/v2/identities/byAny?template=3', {
      headers: { 'content-type': 'text/csv' },
      payload: `\ufeff${lines.join('\r\n')}\n`,
    });
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = rowsOf(res.body);
    expect(header).toEqual(['email', 'phone', 'score', 'matchedOn', 'id', 'emails', 'error']);
    expect(rows).toHaveLength(expected.length);
    expect(rows.map((r) => r[4])).toEqual(expected);
    expect(rows[1]![2]).toBe('100'); // e-mail and phone together
    expect(rows[1]![3]).toBe('email;phone');
    expect(rows[3]).toEqual(['not, an email', '', '', '', '', '', `line 5: email: ${LOOKUP_MESSAGES.email}`]);
    expect(rows[STREAM_BATCH + 7]!.at(-1)).toBe(`line ${STREAM_BATCH + 9}: ${STREAM_MESSAGES.width(3, 2)}`);
  });

  it('marks an overlong row and an unclosed quote, and reads on after them', async () => {
    const p = person();
    await load(t.database, p);
    const email = p.emails[0]!.address;
    const body = ['email', email, 'x'.repeat(MAX_RECORD_BYTES + 10), email, '"never closed', ...Array(120).fill(email)];
    const res = await call('PUT', '/v2/identities/byEmail?template=3', {
      headers: { 'content-type': 'text/csv' },
      payload: `${body.join('\n')}\n`,
    });
    const [, ...rows] = rowsOf(res.body);
    expect(rows[0]![3]).toBe(String(p.id));
    expect(rows[1]!.at(-1)).toBe(`line 3: ${CSV_INPUT_MESSAGES.tooLong}`);
    expect(rows[2]![3]).toBe(String(p.id));
    // The open quote runs on for 100 lines, as a quoted field with line breaks may; then the rest reads normally.
    expect(rows[3]!.at(-1)).toBe(`line 5: ${CSV_INPUT_MESSAGES.unclosed}`);
    expect(rows.at(-1)![3]).toBe(String(p.id));
  });

  it('marks every row after a template fails past the first batch, row for row', async () => {
    const { createTemplate } = await import('../templates/repo');
    const fine = person({ data: { note: '1' } });
    const breaking = person({ data: { note: 'x' } });
    await load(t.database, fine, breaking);
    const bad = await createTemplate(t.database, {
      name: 'Number',
      organizationId: null,
      createdBy: null,
      expression: '{ "n": $number(data.note) }',
      publish: true,
    });
    const ids = [...Array(STREAM_BATCH).fill(fine.id), breaking.id, fine.id, fine.id];
    const res = await call('PUT', `/v2/identities/byId?template=${bad.id}`, {
      headers: { 'content-type': 'text/csv' },
      payload: `id\n${ids.join('\n')}\n`,
    });
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = rowsOf(res.body);
    expect(header).toEqual(['id', 'score', 'matchedOn', 'n', 'error']);
    expect(rows).toHaveLength(ids.length);
    expect(rows[0]).toEqual([String(fine.id), '100', 'id', '1', '']);
    for (const row of rows.slice(STREAM_BATCH)) {
      expect(row.slice(1, 4)).toEqual(['', '', '']);
      expect(row[4]).toMatch(
        /^line \d+: Template \d+ \(Number, version 1\) failed: it failed while evaluating a record\.$/,
      );
      expect(row[4]).not.toContain('"x"');
    }
  });

  it('refuses options it does not know, in the query of a PUT and the body of a POST', async () => {
    const put = await call('PUT', '/v2/identities/byEmail?minscore=5', {
      headers: { 'content-type': 'text/csv' },
      payload: 'email\n',
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().fields).toEqual([{ path: 'querystring.minscore', message: unknownOption('minscore') }]);
    const post = await call('POST', '/v2/identities/byEmail', { payload: { inputs: [uniqueEmail()], temlate: 2 } });
    expect(post.json().fields).toEqual([{ path: 'body.temlate', message: unknownOption('temlate') }]);
  });

  it('refuses a PUT without a CSV body or with a header naming no input of the endpoint', async () => {
    const empty = await call('PUT', '/v2/identities/byEmail', { headers: { 'content-type': 'text/csv' }, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(STREAM_MESSAGES.header);
    const json = await call('PUT', '/v2/identities/byEmail', { payload: { inputs: [] } });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe(STREAM_MESSAGES.body);
    const foreign = await call('PUT', '/v2/identities/byEmail', {
      headers: { 'content-type': 'text/csv' },
      payload: 'phone\n+14155550123\n',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe(STREAM_MESSAGES.noInputs('byEmail'));
    expect(foreign.json().fields).toEqual([{ path: 'body.header', message: STREAM_MESSAGES.noInputs('byEmail') }]);
    // Comma only (RFC 4180): a semicolon- or tab-separated header is one column, and says so.
    for (const header of ['email;phone', 'email\tphone']) {
      const other = await call('PUT', '/v2/identities/byAny', {
        headers: { 'content-type': 'text/csv' },
        payload: `${header}\nx@y.example;+14155550123\n`,
      });
      expect(other.statusCode).toBe(400);
      expect(other.json().error).toBe(STREAM_MESSAGES.delimiter(header));
    }
    const twice = await call('PUT', '/v2/identities/byEmail', {
      headers: { 'content-type': 'text/csv' },
      payload: 'email,email\n',
    });
    expect(twice.json().error).toBe(STREAM_MESSAGES.repeated('email'));
  });

  it('passes columns that are not inputs through, in their place, on every row', async () => {
    const p = person();
    await load(t.database, p);
    const email = p.emails[0]!.address;
    // A spreadsheet's unnamed index column, the caller's own id, a note with a comma and CRLF inside quotes.
    const res = await call('PUT', '/v2/identities/byEmail?template=3', {
      headers: { 'content-type': 'text/csv' },
      payload: `,customerId,email,note\r\n0,c-1,${email},"two\r\nlines, kept"\r\n1,c-2,nobody@nowhere.example,\r\n2,c-3,not an email,x\r\n3,c-4\r\n`,
    });
    expect(res.statusCode).toBe(200);
    const parsed = parse(res.body, { relax_column_count: true }) as string[][];
    expect(parsed[0]).toEqual(['', 'customerId', 'email', 'note', 'score', 'matchedOn', 'id', 'emails', 'error']);
    expect(parsed[1]!.slice(0, 7)).toEqual(['0', 'c-1', email, 'two\r\nlines, kept', '97', 'email', String(p.id)]);
    expect(parsed[2]).toEqual(['1', 'c-2', 'nobody@nowhere.example', '', '', '', '', '', '']);
    expect(parsed[3]!.slice(0, 4)).toEqual(['2', 'c-3', 'not an email', 'x']);
    expect(parsed[3]!.at(-1)).toBe(`line 5: email: ${LOOKUP_MESSAGES.email}`);
    expect(parsed[4]!.at(-1)).toBe(`line 6: ${STREAM_MESSAGES.width(2, 4)}`);
    // Repeated names are still refused (an empty one may repeat).
    const twice = await call('PUT', '/v2/identities/byEmail', {
      headers: { 'content-type': 'text/csv' },
      payload: 'email,ref,ref\n',
    });
    expect([twice.statusCode, twice.json().error]).toEqual([400, STREAM_MESSAGES.repeated('ref')]);
    // A column named as a reply's own (score, matchedOn, error) would be read in its place: refused.
    for (const name of ['score', 'matchedOn', 'error']) {
      const res = await call('PUT', '/v2/identities/byEmail', {
        headers: { 'content-type': 'text/csv' },
        payload: `email,${name}\nx@y.example,1\n`,
      });
      expect([res.statusCode, res.json().error], name).toEqual([400, STREAM_MESSAGES.reserved(name)]);
      expect(res.json().fields).toEqual([{ path: `body.header.${name}`, message: STREAM_MESSAGES.reserved(name) }]);
    }
  });

  it('refuses rows ended by a carriage return alone (old Mac exports) rather than reading them as one header', async () => {
    const res = await call('PUT', '/v2/identities/byEmail', {
      headers: { 'content-type': 'text/csv' },
      payload: 'email,id\ra@b.example,1\rc@d.example,2\r',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(STREAM_MESSAGES.carriageReturns);
  });

  it("reads RFC 4180 exactly: a malformed quote is its own row's error, CRLF in quotes is kept", async () => {
    const p = person();
    await load(t.database, p);
    const email = p.emails[0]!.address;
    const res = await call('PUT', '/v2/identities/byEmail?template=3', {
      headers: { 'content-type': 'text/csv' },
      payload: `\ufeffemail,ref\r\n"${email}"x,1\r\n${email},a"b\r\n"${email}","r\r\n2"\r\n`,
    });
    expect(res.statusCode).toBe(200);
    const [, bad1, bad2, good] = parse(res.body) as string[][];
    expect(bad1!.at(-1)).toBe(`line 2: ${CSV_INPUT_MESSAGES.closingQuote}`);
    expect(bad1![0]).toBe('');
    expect(bad2!.at(-1)).toBe(`line 3: ${CSV_INPUT_MESSAGES.openingQuote}`);
    expect(good!.slice(0, 5)).toEqual([email, 'r\r\n2', '97', 'email', String(p.id)]);
  });

  it('guards output cells a spreadsheet would run as formulas, echoed ones included', async () => {
    const res = await call('PUT', '/v2/identities/byEmail?template=3', {
      headers: { 'content-type': 'text/csv' },
      payload:
        'email,=ref\nnobody@nowhere.example,"=HYPERLINK(""http://x.example"",""y"")"\nnobody@nowhere.example,+14155550123\n',
    });
    const [header, first, second] = parse(res.body) as string[][];
    expect(header![1]).toBe("'=ref");
    expect(first![1]).toBe('\'=HYPERLINK("http://x.example","y")');
    expect(second![1]).toBe('+14155550123');
  });

  it('answers 422 before streaming when the template fails on the first rows', async () => {
    const p = person();
    await load(t.database, p);
    const { createTemplate } = await import('../templates/repo');
    const bad = await createTemplate(t.database, {
      name: 'Bad',
      organizationId: null,
      createdBy: null,
      expression: '{ "n": $number("x") }',
      publish: true,
    });
    const res = await call('PUT', `/v2/identities/byId?template=${bad.id}`, {
      headers: { 'content-type': 'text/csv' },
      payload: `id\n${p.id}\n`,
    });
    expect(res.statusCode).toBe(422);
  });
});
