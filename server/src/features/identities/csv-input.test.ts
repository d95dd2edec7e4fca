/** Reading CSV records as RFC 4180 has them, from a stream cut anywhere, in bounded memory; and writing them back. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_INPUT_MESSAGES, type CsvRecord, csvRecords, MAX_RECORD_BYTES } from './csv-input';
import { csvLine, guardFormula, headerLine } from './csv-output';

async function read(chunks: Iterable<Buffer | string>): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const record of csvRecords(
    (async function* () {
      yield* chunks;
    })(),
  ))
    out.push(record);
  return out;
}
/** The same body, whole and one byte at a time: framing must not depend on where the chunks fall. */
async function readBoth(text: string): Promise<CsvRecord[]> {
  const whole = await read([Buffer.from(text)]);
  const bytes = Buffer.from(text);
  const single = await read(Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)));
  expect(single).toEqual(whole);
  return whole;
}

describe('csvRecords', () => {
  it('keeps CRLF and LF inside a quoted field as sent', async () => {
    expect(await readBoth('a,b\r\n"x\r\ny",2\r\n"p\nq",3\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\r\ny', '2'] },
      { line: 4, fields: ['p\nq', '3'] },
    ]);
  });

  it('reads quoted commas, doubled quotes, empty fields, a BOM, blank lines and a last row with no line break', async () => {
    expect(await readBoth('\ufeffa,b,c\r\n"1,2","say ""hi""",\r\n\r\n  \n,,\n"é",ü,"€"')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1,2', 'say "hi"', ''] },
      { line: 5, fields: ['', '', ''] },
      { line: 6, fields: ['é', 'ü', '€'] },
    ]);
  });

  it('makes "a"b and ab"c errors of their own rows and reads on', async () => {
    expect(await readBoth('a,b\n"a"b,1\nx,2\nab"c,3\ny,4\n"q",""\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, error: CSV_INPUT_MESSAGES.closingQuote },
      { line: 3, fields: ['x', '2'] },
      { line: 4, error: CSV_INPUT_MESSAGES.openingQuote },
      { line: 5, fields: ['y', '4'] },
      { line: 6, fields: ['q', ''] },
    ]);
  });

  it('ends an unclosed quote after 100 lines, or at the end of the body, and reads on after it', async () => {
    const rows = await read([`a\n"open\n${Array.from({ length: 150 }, (_, i) => `r${i}`).join('\n')}\n`]);
    expect(rows[1]).toEqual({ line: 2, error: CSV_INPUT_MESSAGES.unclosed });
    expect(rows[2]).toEqual({ line: 102, fields: ['r99'] });
    expect(rows.at(-1)).toEqual({ line: 152, fields: ['r149'] });
    expect(await read(['a\n"open\nx\n'])).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, error: CSV_INPUT_MESSAGES.unclosed },
    ]);
  });

  it('bounds a row at 64 KB, within a line or over quoted lines', async () => {
    const long = 'x'.repeat(MAX_RECORD_BYTES + 1);
    const quotedLines = `"${`${'y'.repeat(1000)}\n`.repeat(70)}"`;
    const rows = await read(['a\n', long, '\nb\n', quotedLines, ',1\n']);
    expect(rows.slice(0, 4)).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, error: CSV_INPUT_MESSAGES.tooLong },
      { line: 3, fields: ['b'] },
      { line: 4, error: CSV_INPUT_MESSAGES.tooLong },
    ]);
  });

  it('reports a quoted field that runs over a too-long line as one row, and reads on after it closes', async () => {
    const long = 'x'.repeat(MAX_RECORD_BYTES + 1);
    const body = `email,id\n"a\n${long}\nb",z\nc@d.com,2\ne@f.com,3\n`;
    expect(await readBoth(body)).toEqual([
      { line: 1, fields: ['email', 'id'] },
      { line: 2, error: CSV_INPUT_MESSAGES.tooLong },
      { line: 5, fields: ['c@d.com', '2'] },
      { line: 6, fields: ['e@f.com', '3'] },
    ]);
  });

  it('reads 40 MB in bounded memory', async () => {
    const plain = Buffer.from('someone@example.com,no quotes here,+14155550123\r\n');
    const quoted = Buffer.from('someone@example.com,"quoted, with a comma",+14155550123\r\n');
    const chunk = Buffer.concat(Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? quoted : plain)));
    const rounds = Math.ceil((40 * 1024 * 1024) / chunk.length);
    // What is kept, not garbage not yet collected: the worker runs other files before this one (vitest.config.ts
    // passes --expose-gc), and a long-lived heap collects later.
    const heapKept = () => {
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage().heapUsed;
    };
    const start = heapKept();
    let peak = 0;
    let count = 0;
    for await (const record of csvRecords(
      (async function* () {
        for (let i = 0; i < rounds; i++) yield chunk;
      })(),
    )) {
      if (record.error === undefined) count++;
      if (count % 200_000 === 0) peak = Math.max(peak, heapKept() - start); // a full collection each: not often
      csvLine(record.error === undefined ? record.fields : []);
    }
    expect(count).toBe(rounds * 1000);
    console.log(`heap growth while reading 40 MB: ${(peak / 1048576).toFixed(1)} MB`);
    expect(peak).toBeLessThan(24 * 1024 * 1024);
  }, 120_000);
});

describe('CSV out', () => {
  it('writes RFC 4180 lines that csv-parse reads back exactly', () => {
    const cells = ['a', 'b,c', 'say "hi"', 'x\r\ny', 'lone\rcr', '', ' spaced '];
    const line = csvLine(cells);
    expect(line.endsWith('\r\n')).toBe(true);
    expect(parse(line, { record_delimiter: '\r\n' })).toEqual([cells]);
  });

  it('guards cells a spreadsheet would run as formulas, and leaves numbers and phone numbers alone', () => {
    for (const risky of [
      '=1+1',
      '@SUM(A1)',
      '+cmd|/C calc!A0',
      '-2+3+cmd|x!A0',
      '\tx',
      '\rx',
      '=HYPERLINK("http://x")',
      ' =1+1',
      '\u00a0=HYPERLINK("x")',
      '|calc',
      '\uff1d1+1',
    ]) {
      expect(guardFormula(risky), risky).toBe(`'${risky}`);
    }
    for (const safe of ['+14155550123', '-12.5', '+1 (415) 555-0100', '-', 'plain', 'a=b', '', ' -12.5', ' plain']) {
      expect(guardFormula(safe), safe).toBe(safe);
    }
    expect(csvLine(['=1+1', 'ok'])).toBe("'=1+1,ok\r\n");
  });

  it('quotes a header whose first bytes would look like compressed data to the compression plugin', () => {
    expect(headerLine(['H', 'email'])).toBe('"H","email"\r\n');
    expect(headerLine(['email', 'H'])).toBe('email,H\r\n');
  });
});
