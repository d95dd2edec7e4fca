import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import {
  countsFor,
  generatedPeople,
  jsonl,
  ownIdBase,
  query,
  scratchFile,
} from '../features/people/import/test-records';
import { testDatabase } from '../test/harness';
import { runCli, storageEnv } from '../test/process';
import { parseImportArgs, rejectsExceed } from './import';
import { UsageError } from './usage-error';

describe('tessera import: arguments', () => {
  it('reads files by their extension, --rejects, --max-rejects and --batch-size', () => {
    const args = ['a.jsonl', 'b.CSV', '--rejects', 'r.jsonl', '--max-rejects', '25', '--batch-size', '500'];
    expect(parseImportArgs(args)).toEqual({
      files: [
        { path: 'a.jsonl', format: 'jsonl' },
        { path: 'b.CSV', format: 'csv' },
      ],
      rejects: 'r.jsonl',
      maxRejects: { count: 25 },
      batchSize: 500,
    });
    expect(parseImportArgs(['a.ndjson']).batchSize).toBe(2000);
    expect(parseImportArgs(['a.ndjson']).maxRejects).toEqual({ count: 0 });
    expect(parseImportArgs(['a.csv', '--max-rejects=2.5%']).maxRejects).toEqual({ percent: 2.5 });
    expect(parseImportArgs(['a.csv', '--max-rejects', '100%']).maxRejects).toEqual({ percent: 100 });
  });

  it('fails when refused rows are more than --max-rejects allows, a count or a share of the rows read', () => {
    expect(rejectsExceed({ count: 0 }, 0, 10)).toBe(false);
    expect(rejectsExceed({ count: 0 }, 1, 10)).toBe(true);
    expect(rejectsExceed({ count: 3 }, 3, 3)).toBe(false);
    expect(rejectsExceed({ count: 3 }, 4, 100)).toBe(true);
    expect(rejectsExceed({ percent: 5 }, 5, 100)).toBe(false);
    expect(rejectsExceed({ percent: 5 }, 6, 100)).toBe(true);
    expect(rejectsExceed({ percent: 100 }, 31, 31)).toBe(false);
    expect(rejectsExceed({ percent: 0 }, 0, 0)).toBe(false);
  });

  it('names the argument that is missing or wrong', () => {
    const fails = (args: string[], message: string) => {
      expect(() => parseImportArgs(args)).toThrow(UsageError);
      expect(() => parseImportArgs(args)).toThrow(message);
    };
    fails([], 'import needs at least one FILE.');
    fails(['people.txt'], 'people.txt: the file name must end in .jsonl, .ndjson, .json or .csv.');
    for (const bad of ['0', 'x', '1.5', '100001']) {
      fails(['a.jsonl', `--batch-size=${bad}`], `--batch-size must be a whole number from 1 to 100000, not "${bad}".`);
    }
    fails(['a.jsonl', '--rejects='], '--rejects needs a PATH.');
    for (const bad of ['-1', 'x', '1.5', '101%', '5%%', '%', '']) {
      fails(
        ['a.jsonl', `--max-rejects=${bad}`],
        `--max-rejects must be a whole number of rows or a percentage from 0% to 100%, not "${bad}".`,
      );
    }
  });
});

describe('tessera import: the command', () => {
  it('loads a file with progress, writes refused rows beside it, sums up, and fails on a refused row', async () => {
    const people = generatedPeople(30, 'cli-import', ownIdBase());
    const file = scratchFile('people.jsonl', `${jsonl(people)}not json\n`);
    const { code, stdout, stderr } = await runCli(['import', file], storageEnv());
    // Any refused row is too many by default: exit code 3, after loading every other row.
    expect(code).toBe(3);
    expect(stderr).toMatch(
      /^Importing: 100% \([\d.]+\/[\d.]+ kB\) in [\d.]+ s, [\d.]+ [kM]?B\/s, 31 rows, 1 refused\n/m,
    );
    expect(stderr).toContain('tessera import: 1 of 31 rows refused, more than --max-rejects 0 allows (exit code 3).\n');
    expect(stdout).toMatch(/Loaded 30 identities, rejected 1 rows, in [\d.]+ s \([\d,]+ identities\/s\)/);
    expect(stdout).toContain(`Rejected rows: ${file}.rejects.jsonl`);
    const report = readFileSync(`${file}.rejects.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(report).toEqual([{ file, line: 31, reason: expect.stringMatching(/^not JSON: /) }]);
  });

  it('exits 0 when the refused rows are within --max-rejects, a count or a percentage, and 3 past it', async () => {
    const env = storageEnv();
    const people = generatedPeople(19, 'cli-max-rejects', ownIdBase());
    const file = scratchFile('people.jsonl', `${jsonl(people)}not json\n`); // 1 of 20 rows: 5 %
    for (const [max, expected] of [
      ['1', 0],
      ['5%', 0],
      ['4.9%', 3],
    ] as const) {
      const res = await runCli(['import', file, '--max-rejects', max], env);
      expect(res.code, `--max-rejects ${max}: ${res.output}`).toBe(expected);
      expect(res.stdout).toContain('Loaded 19 identities, rejected 1 rows');
    }
    // Three CLI starts in a row, each migrating an embedded database: the allowance is for them under the load of
    // the other test groups (one start alone took 16 s there), not a speed check.
  }, 300_000);

  it('exits 3 when every row is refused', async () => {
    const file = scratchFile('people.jsonl', 'not json\n{"id": "x"}\n');
    const res = await runCli(['import', file], storageEnv());
    expect(res.code).toBe(3);
    expect(res.stdout).toContain('Loaded 0 identities, rejected 2 rows');
    expect(res.stderr).toContain('tessera import: 2 of 2 rows refused, more than --max-rejects 0 allows');
  });

  it('loads a file again in place, with text that needs escaping, in the same database', async () => {
    const people = generatedPeople(20, 'cli-reimport', ownIdBase());
    const env = storageEnv();
    const first = await runCli(['import', scratchFile('people.jsonl', jsonl(people))], env);
    expect(first.output).toMatch(/Loaded 20 identities, rejected 0 rows/);
    const changed = people.map((p, i) =>
      i < 5 ? { ...p, lastName: `Tab\there \\ "quoted" 李 ${i}`, emails: [], data: { note: 'line\nbreak' } } : p,
    );
    const again = await runCli(['import', scratchFile('people.jsonl', jsonl(changed))], env);
    expect(again.code).toBe(0);
    expect(again.output).toMatch(/Loaded 20 identities, rejected 0 rows/);
    if (!inject('databaseUrl')) return; // PGlite: the database is the child's own folder
    const database = await testDatabase();
    const [row] = await query<{ last_name: string }>(database, 'select last_name from people where id = $1', [
      people[0]!.id,
    ]);
    expect(row!.last_name).toBe(changed[0]!.lastName);
    expect((await countsFor(database, [people[0]!.id])).person_emails).toBe(0);
    const data = await query(database, 'select key, value from person_data where identity_id = $1', [people[0]!.id]);
    expect(data).toEqual([{ key: 'note', value: 'line\nbreak' }]);
    expect((await countsFor(database, [people[9]!.id])).person_emails).toBe(people[9]!.emails.length);
  });

  it('exits 2 with a message for a missing file or a bad argument', async () => {
    const missing = await runCli(['import', '/nonexistent/people.jsonl'], storageEnv());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `tessera import: /nonexistent/people.jsonl: no such file. Try 'tessera import --help'.\n`,
    );
    const none = await runCli(['import'], storageEnv());
    expect(none.code).toBe(2);
    expect(none.output).toContain('import needs at least one FILE.');
    const stray = await runCli(['import', 'a.jsonl', '--colour', 'red'], storageEnv());
    expect(stray.code).toBe(2);
    expect(stray.output).toContain("'--colour'");
  });
});
