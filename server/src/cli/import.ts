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
import { UsageError } from './usage-error';

export const IMPORT_USAGE = `import FILE [FILE...] [--rejects PATH] [--batch-size N]
                                         load identity records from .jsonl or .csv files; a person already there
                                         (same id) is replaced; refused rows go to FILE.rejects.jsonl (or PATH)`;

/**
 * A file this big (some 30,000 generated people) loads into an empty PostgreSQL database in bulk mode: one
 * transaction, secondary indexes built at the end (docs/decisions/0012-import-copy.md).
 */
export const BULK_MIN_BYTES = 64 * 1024 * 1024;

export interface ImportArgs {
  files: { path: string; format: 'jsonl' | 'csv' }[];
  rejects: string | null;
  batchSize: number;
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
    options: { rejects: { type: 'string' }, 'batch-size': { type: 'string' } },
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
  return { files, rejects: values.rejects ?? null, batchSize: Number(size) };
}

export async function importCommand(args: string[]): Promise<void> {
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
    const progress = createProgress('Importing (bytes)', total);
    const shared = options.rejects ? rejectFile(options.rejects) : null;
    let before = 0;
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
        onReject: (r) => sink.add(r),
        onBatch: ({ last }) => progress.update(before + (last?.bytes ?? 0)),
      });
      if (!shared) {
        await sink.close();
        if (sink.count > 0) reports.push(`${file.path}.rejects.jsonl`);
      }
      loaded += summary.loaded;
      rejected += summary.rejected;
      seconds += summary.seconds;
      before += sizes[i]!;
      progress.update(before);
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
}
