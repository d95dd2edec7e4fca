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
import { parseImportArgs } from './import';
import { UsageError } from './usage-error';

describe('tessera import: arguments', () => {
  it('reads files by their extension, --rejects and --batch-size', () => {
    expect(parseImportArgs(['a.jsonl', 'b.CSV', '--rejects', 'r.jsonl', '--batch-size', '500'])).toEqual({
      files: [
        { path: 'a.jsonl', format: 'jsonl' },
        { path: 'b.CSV', format: 'csv' },
      ],
      rejects: 'r.jsonl',
      batchSize: 500,
    });
    expect(parseImportArgs(['a.ndjson']).batchSize).toBe(2000);
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
  });
});

describe('tessera import: the command', () => {
  it('loads a file with a progress bar, writes refused rows beside it and sums up', async () => {
    const people = generatedPeople(30, 'cli-import', ownIdBase());
    const file = scratchFile('people.jsonl', `${jsonl(people)}not json\n`);
    const { code, output } = await runCli(['import', file], storageEnv());
    expect(code).toBe(0);
    expect(output).toContain('Importing (bytes): 100%');
    expect(output).toMatch(/Loaded 30 identities, rejected 1 rows, in [\d.]+ s \([\d,]+ identities\/s\)/);
    expect(output).toContain(`Rejected rows: ${file}.rejects.jsonl`);
    const report = readFileSync(`${file}.rejects.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(report).toEqual([{ file, line: 31, reason: expect.stringMatching(/^not JSON: /) }]);
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
    expect(missing.output).toContain('/nonexistent/people.jsonl: no such file.');
    const none = await runCli(['import'], storageEnv());
    expect(none.code).toBe(2);
    expect(none.output).toContain('import needs at least one FILE.');
    const stray = await runCli(['import', 'a.jsonl', '--colour', 'red'], storageEnv());
    expect(stray.code).toBe(2);
    expect(stray.output).toContain("'--colour'");
  });
});
