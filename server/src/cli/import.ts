/** `tessera import FILE [FILE...]`: loads identity records from JSONL or CSV files (docs/identity-record.md). */
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { createProgress, thousands } from '../features/people/generate/progress';
import { readCsv } from '../features/people/import/csv';
import { DEFAULT_BATCH_SIZE, importRows } from '../features/people/import/importer';
import { readJsonl } from '../features/people/import/jsonl';
import { rejectFile } from '../features/people/import/rejects';
import type { SourceRow } from '../features/people/import/source';
import { readInWorker } from '../features/people/import/worker-source';
import { openStorage } from '../runtime';
import { EXIT, EXIT_CODES_HELP } from './exit-codes';
import { UsageError, wantsHelp } from './usage-error';

export const IMPORT_SYNOPSIS = 'import FILE [FILE...] [--rejects PATH] [--max-rejects N|P%] [--batch-size N]';

export const IMPORT_HELP = `Usage: tessera ${IMPORT_SYNOPSIS}

Loads identity records from .jsonl (.ndjson, .json) or .csv files (docs/identity-record.md) into the database
that DATABASE_URL or DATA_DIR names. A person already there (same id) is replaced. Refused rows are written to
FILE.rejects.jsonl beside each file, or all to PATH, one {file, line, reason} per line; every other row is loaded.

Options:
  --rejects PATH       one report of refused rows for all files
  --max-rejects N|P%   how many refused rows (a count, or a percentage of the rows read) still count as a
                       success; more make the exit code 3 (default 0: any refused row)
  --batch-size N       people per transaction, 1 to 100000 (default ${DEFAULT_BATCH_SIZE})
  -h, --help           show this help

Progress (bytes read, rate, time left, rows, refused) goes to stderr: a bar redrawn in place on a terminal,
otherwise a line at each tenth of the way and at least every 30 s.

${EXIT_CODES_HELP}`;

/**
 * A file this big (some 30,000 generated people) loads into an empty PostgreSQL database in bulk mode: one
 * transaction, secondary indexes built at the end (docs/decisions/0012-import-copy.md).
 */
export const BULK_MIN_BYTES = 64 * 1024 * 1024;

/** The most refused rows an import may have and still succeed: a count, or a percentage of the rows read. */
export type MaxRejects = { count: number } | { percent: number };

export interface ImportArgs {
  files: { path: string; format: 'jsonl' | 'csv' }[];
  rejects: string | null;
  maxRejects: MaxRejects;
  batchSize: number;
}

function parseMaxRejects(value: string): MaxRejects {
  if (/^\d+$/.test(value)) return { count: Number(value) };
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (percent && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  throw new UsageError(`--max-rejects must be a whole number of rows or a percentage from 0% to 100%, not "${value}".`);
}

/** True when the refused rows are more than `max` allows. */
export function rejectsExceed(max: MaxRejects, rejected: number, rows: number): boolean {
  return 'count' in max ? rejected > max.count : rejected * 100 > max.percent * rows;
}

export function formatOf(file: string): 'jsonl' | 'csv' | null {
  const lower = file.toLowerCase();
  if (/\.(jsonl|ndjson|json)$/.test(lower)) return 'jsonl';
  if (lower.endsWith('.csv')) return 'csv';
  return null;
}

/** The checked arguments; a UsageError naming the argument when one is missing or wrong. */
export function parseImportArgs(args: string[]): ImportArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { rejects: { type: 'string' }, 'max-rejects': { type: 'string' }, 'batch-size': { type: 'string' } },
  });
  if (positionals.length === 0) throw new UsageError('import needs at least one FILE.');
  const files = positionals.map((path) => {
    const format = formatOf(path);
    if (!format) throw new UsageError(`${path}: the file name must end in .jsonl, .ndjson, .json or .csv.`);
    return { path, format };
  });
  const size = values['batch-size'] ?? String(DEFAULT_BATCH_SIZE);
  if (!/^\d+$/.test(size) || Number(size) < 1 || Number(size) > 100_000) {
    throw new UsageError(`--batch-size must be a whole number from 1 to 100000, not "${size}".`);
  }
  if (values.rejects !== undefined && values.rejects.trim() === '') throw new UsageError('--rejects needs a PATH.');
  const maxRejects = parseMaxRejects(values['max-rejects'] ?? '0');
  return { files, rejects: values.rejects ?? null, maxRejects, batchSize: Number(size) };
}

/** Loads the files; the exit code: 0, or 3 (EXIT.rejects) when more rows were refused than --max-rejects allows. */
export async function importCommand(args: string[]): Promise<number> {
  if (wantsHelp(args)) {
    console.log(IMPORT_HELP);
    return EXIT.ok;
  }
  const options = parseImportArgs(args);
  const sizes: number[] = [];
  for (const file of options.files) {
    const found = await stat(file.path).catch(() => null);
    if (!found?.isFile()) throw new UsageError(`${file.path}: no such file.`);
    sizes.push(found.size);
  }
  const total = sizes.reduce((a, b) => a + b, 0);
  const database = await openStorage(loadConfig());
  let loaded = 0;
  let rejected = 0;
  let seconds = 0;
  const reports: string[] = [];
  try {
    const progress = createProgress('Importing', total, { unit: 'bytes' });
    const shared = options.rejects ? rejectFile(options.rejects) : null;
    let bytesBefore = 0;
    let rowsBefore = 0;
    let refused = 0;
    const detail = (rows: number) => `${thousands(rows)} rows${refused > 0 ? `, ${thousands(refused)} refused` : ''}`;
    for (const [i, file] of options.files.entries()) {
      const sink = shared ?? rejectFile(`${file.path}.rejects.jsonl`);
      // Into PostgreSQL a worker thread parses beside the writing; PGlite writes in this thread anyway.
      const rows: AsyncIterable<SourceRow> =
        database.engine === 'postgres'
          ? readInWorker(file.path, file.format, { ahead: Math.max(8192, 2 * options.batchSize) })
          : file.format === 'csv'
            ? readCsv(file.path)
            : readJsonl(file.path);
      const summary = await importRows(database, rows, {
        batchSize: options.batchSize,
        bulk: database.engine === 'postgres' && sizes[i]! >= BULK_MIN_BYTES,
        onReject: (r) => {
          refused++;
          sink.add(r);
        },
        onBatch: ({ rows, last }) => progress.update(bytesBefore + (last?.bytes ?? 0), detail(rowsBefore + rows)),
      });
      if (!shared) {
        await sink.close();
        if (sink.count > 0) reports.push(`${file.path}.rejects.jsonl`);
      }
      loaded += summary.loaded;
      rejected += summary.rejected;
      seconds += summary.seconds;
      bytesBefore += sizes[i]!;
      rowsBefore += summary.loaded + summary.rejected;
      progress.update(bytesBefore, detail(rowsBefore));
    }
    if (shared) {
      await shared.close();
      if (shared.count > 0) reports.push(options.rejects!);
    }
    progress.finish();
  } finally {
    await database.close();
  }
  const rate = seconds > 0 ? loaded / seconds : 0;
  console.log(
    `Loaded ${thousands(loaded)} identities, rejected ${thousands(rejected)} rows, in ${seconds.toFixed(1)} s (${thousands(rate)} identities/s) into ${database.engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}.`,
  );
  if (reports.length > 0) console.log(`Rejected rows: ${reports.join(', ')}`);
  if (!rejectsExceed(options.maxRejects, rejected, loaded + rejected)) return EXIT.ok;
  const max = 'count' in options.maxRejects ? options.maxRejects.count : `${options.maxRejects.percent}%`;
  console.error(
    `tessera import: ${thousands(rejected)} of ${thousands(loaded + rejected)} rows refused, more than --max-rejects ${max} allows (exit code ${EXIT.rejects}).`,
  );
  return EXIT.rejects;
}
