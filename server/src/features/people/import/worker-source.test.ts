/**
 * Parsing on a worker thread gives the rows the in-thread readers give (people as their COPY text), refuses the
 * same rows for the same reasons, keeps up when the reader is slow, and stops its worker when the reader does.
 */
import { describe, expect, it } from 'vitest';
import { personCopy } from './copy-text';
import { readCsv } from './csv';
import { csvField } from './csv-fields';
import { readJsonl } from './jsonl';
import type { ParsedRow, SourceRow } from './source';
import { generatedPeople, jsonl, scratchFile } from './test-records';
import { readInWorker } from './worker-source';

/** What the in-thread reader's rows look like once the worker has prepared them. */
const asPrepared = (row: ParsedRow): SourceRow =>
  'record' in row
    ? { file: row.file, line: row.line, bytes: row.bytes, person: { id: row.record.id, copy: personCopy(row.record) } }
    : row;

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe('parsing on a worker thread', () => {
  it('gives the same rows and reasons as reading in this thread', async () => {
    const people = generatedPeople(700, 'worker-source', 0);
    const lines = jsonl(people).split('\n');
    lines.splice(3, 0, 'not json', '', JSON.stringify({ ...people[1], gender: 'X' }));
    lines.splice(600, 0, JSON.stringify({ ...people[2], firstName: 'Tab\tand \\ backslash', lastName: '李 🙂' }));
    const file = scratchFile('people.jsonl', lines.join('\n'));
    const expected = (await all(readJsonl(file))).map(asPrepared);
    // Small credit: the worker has to wait for this reader several times.
    const got = await all(readInWorker(file, 'jsonl', { ahead: 300 }));
    expect(got).toEqual(expected);
    expect(got.filter((r) => 'reason' in r)).toHaveLength(2);
    expect(got).toHaveLength(703);
  });

  it('reads CSV the same way', async () => {
    const text = [
      'id,firstName,lastName,firstSeen,lastSeen,emails.0.address',
      '1,Ann,"Lee, ""Jr""",2020-01-01,2021-01-01,ann@example.org',
      '2,Bo,"Two',
      'lines",2020-01-01,2021-01-01,',
      `3,Cy,${csvField('Bad')},2020-01-01,2021-02-30,`,
      '4,too,few',
    ].join('\n');
    const file = scratchFile('people.csv', `${text}\n`);
    const expected = (await all(readCsv(file))).map(asPrepared);
    expect(await all(readInWorker(file, 'csv'))).toEqual(expected);
    expect(expected.map((r) => ('reason' in r ? r.reason.slice(0, 9) : 'ok'))).toEqual([
      'ok',
      'ok',
      'lastSeen:',
      '3 fields;',
    ]);
  });

  it('stops its worker when the reader stops early, and reports a file it cannot read', async () => {
    const file = scratchFile('people.jsonl', jsonl(generatedPeople(2000, 'worker-early', 0)));
    let taken = 0;
    for await (const _ of readInWorker(file, 'jsonl', { ahead: 256 })) {
      if (++taken === 10) break;
    }
    expect(taken).toBe(10);
    await expect(all(readInWorker('/nonexistent/people.jsonl', 'jsonl'))).rejects.toThrow(/ENOENT/);
  });
});
