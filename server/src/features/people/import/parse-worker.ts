/**
 * The parsing worker (worker-source.ts starts it): reads one file, checks each row as the in-thread readers do,
 * and hands the main thread each person as COPY text (personCopy) or the reason the row is refused, in chunks.
 * It stays at most `ahead` rows ahead of what the main thread has taken.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { personCopy } from './copy-text';
import { readCsv } from './csv';
import { readJsonl } from './jsonl';
import type { WorkerRow, WorkerSetup, WorkerToMain } from './worker-source';

const CHUNK_ROWS = 256;

const port = parentPort!;
const { file, format, ahead } = workerData as WorkerSetup;
let credit = ahead;
let wake: (() => void) | null = null;
port.on('message', (message: { taken: number }) => {
  credit += message.taken;
  wake?.();
});

const post = (message: WorkerToMain) => port.postMessage(message);

async function run(): Promise<void> {
  const rows = format === 'csv' ? readCsv(file) : readJsonl(file);
  let chunk: WorkerRow[] = [];
  for await (const row of rows) {
    chunk.push(
      'reason' in row
        ? { line: row.line, bytes: row.bytes, reason: row.reason }
        : { line: row.line, bytes: row.bytes, id: row.record.id, copy: personCopy(row.record) },
    );
    if (chunk.length < CHUNK_ROWS) continue;
    post({ rows: chunk });
    credit -= chunk.length;
    chunk = [];
    while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  if (chunk.length > 0) post({ rows: chunk });
  post({ done: true });
}

run()
  .catch((err: unknown) => post({ error: err instanceof Error ? err.message : String(err) }))
  .finally(() => port.close());
