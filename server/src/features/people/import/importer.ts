/**
 * The import path shared by `tessera import` and start-up seeding: rows in, batches of people written one
 * transaction each, refused rows to the reject sink. A batch that the database refuses as a whole (a value only
 * it can judge) is rolled back and retried one person per transaction, so only the bad person is rejected.
 * One batch is written while the next is read and parsed (the database and the parser each keep a core busy);
 * a batch starts only after the one before it has committed, so later rows still win.
 */

import type { Database } from '../../../db/client';
import type { Reject } from './rejects';
import { LINKED_TABLES } from './rows';
import type { SourceRow } from './source';
import { type BatchItem, type BatchWriter, LoadAborted, openBatchWriter } from './write-batch';

export const DEFAULT_BATCH_SIZE = 2000;

/** Rows read between two turns of the event loop while a batch is being written. */
const YIELD_EVERY = 8;

export interface ImportOptions {
  batchSize?: number;
  onReject?: (reject: Reject) => void;
  /** Called after every batch with the rows seen so far and the last one (for a progress display). */
  onBatch?: (done: { rows: number; last: SourceRow | null }) => void;
  /**
   * PostgreSQL: when `people` is empty, load in one transaction with the secondary indexes built at the end
   * (pg-writer.ts, bulk mode). For big first loads; other tables' readers wait until it commits.
   */
  bulk?: boolean;
  /** The writer for one batch (tests replace it to see a failing batch roll back). */
  write?: (database: Database, items: BatchItem[]) => Promise<void>;
}

export interface ImportSummary {
  loaded: number;
  rejected: number;
  seconds: number;
}

interface Pending {
  item: BatchItem;
  file: string;
  line: number;
}

export async function importRows(
  database: Database,
  rows: AsyncIterable<SourceRow> | Iterable<SourceRow>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  let writer: BatchWriter | null = null;
  const custom = options.write;
  const write = custom
    ? (items: BatchItem[]) => custom(database, items)
    : async (items: BatchItem[]) => {
        writer ??= await openBatchWriter(database, { bulk: options.bulk });
        await writer.write(items);
      };
  let loaded = 0;
  let rejected = 0;
  let seen = 0;
  let last: SourceRow | null = null;
  // Keyed by id: a person twice in one batch is written once, as the later row says (as if loaded in order).
  let batch = new Map<number, Pending>();
  const reject = (r: Reject) => {
    rejected++;
    options.onReject?.(r);
  };

  const writeItems = async (items: Pending[], rowsSeen: number, lastRow: SourceRow | null) => {
    try {
      await write(items.map((i) => i.item));
      loaded += items.length;
    } catch (err) {
      if (err instanceof LoadAborted) throw err;
      for (const item of items) {
        try {
          await write([item.item]);
          loaded++;
        } catch (err) {
          if (err instanceof LoadAborted) throw err;
          reject({ file: item.file, line: item.line, reason: `database: ${(err as Error).message}` });
        }
      }
    }
    options.onBatch?.({ rows: rowsSeen, last: lastRow });
  };

  // The batch being written, if any; the next one waits for it.
  const pending: { write: Promise<void> | null } = { write: null };
  const flush = async () => {
    if (batch.size === 0) return;
    const items = [...batch.values()];
    batch = new Map();
    await pending.write;
    const writing = writeItems(items, seen, last).finally(() => {
      if (pending.write === writing) pending.write = null;
    });
    writing.catch(() => {}); // awaited by the next flush or at the end; no unhandled rejection meanwhile
    pending.write = writing;
  };

  let sinceYield = 0;
  try {
    for await (const row of rows) {
      // A batch's write is a chain of round trips, each continued by an I/O callback; a reader that parses a
      // megabyte between two trips to the event loop would leave the database waiting that long every time.
      if (pending.write && ++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      seen++;
      last = row;
      if ('reason' in row) {
        reject({ file: row.file, line: row.line, reason: row.reason });
        continue;
      }
      const item = 'record' in row ? row.record : row.person;
      if (batch.delete(item.id)) loaded++; // the earlier row was loaded, then replaced
      batch.set(item.id, { item, file: row.file, line: row.line });
      if (batch.size >= batchSize) await flush();
    }
    await flush();
    await pending.write;
    await (writer as BatchWriter | null)?.finish();
  } finally {
    await pending.write?.catch(() => {});
    await (writer as BatchWriter | null)?.close();
  }
  // Fresh statistics for the planner: PGlite never analyzes on its own, and PostgreSQL's autovacuum may not have
  // caught up with a big load. Without them a lookup plans several times slower (32 ms against 9 ms measured).
  if (loaded > 0) await database.query(`analyze people, ${LINKED_TABLES.join(', ')}`);
  return { loaded, rejected, seconds: (performance.now() - started) / 1000 };
}
