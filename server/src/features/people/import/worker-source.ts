/**
 * A file's rows parsed on a worker thread (parse-worker.ts), for loads into PostgreSQL: reading, JSON parsing,
 * checking and turning each person into COPY text take as long as PostgreSQL's share of a load, so they run
 * beside it instead of between its round trips. The worker gets a young generation big enough that the
 * short-lived objects of parsing die there (the default one made the collector a third of the parse time).
 */
import { Worker } from 'node:worker_threads';
import type { SourceRow } from './source';

export interface WorkerSetup {
  file: string;
  format: 'jsonl' | 'csv';
  /** Rows the worker may parse beyond what the main thread has taken. */
  ahead: number;
}

export type WorkerRow =
  | { line: number; bytes: number; reason: string }
  | { line: number; bytes: number; id: number; copy: string[] };

export type WorkerToMain = { rows: WorkerRow[] } | { done: true } | { error: string };

/**
 * From the TypeScript source (tsx, the tests) a boot script registers tsx in the worker and imports parse-worker.ts;
 * the compiled CLI (server/dist/cli.js) has parse-worker.js built beside it (scripts/build-server.mjs), which needs
 * no loader.
 */
const COMPILED = !import.meta.url.endsWith('.ts');
const SCRIPT = new URL(COMPILED ? './parse-worker.js' : './parse-worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./parse-worker.ts', import.meta.url).href;
/** Measured on 100,000 generated people: 48 MB as slow as the default, 192 MB a quarter less CPU. */
const YOUNG_GENERATION_MB = 192;

export async function* readInWorker(
  file: string,
  format: 'jsonl' | 'csv',
  options: { ahead?: number } = {},
): AsyncGenerator<SourceRow> {
  const worker = new Worker(SCRIPT, {
    workerData: { entry: ENTRY, file, format, ahead: options.ahead ?? 8192 } satisfies WorkerSetup & {
      entry: string;
    },
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const queue: WorkerToMain[] = [];
  let failure: Error | null = null;
  let exited = false;
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (message: WorkerToMain) => {
    queue.push(message);
    poke();
  });
  worker.on('error', (err) => {
    failure = err;
    poke();
  });
  worker.on('exit', () => {
    exited = true;
    poke();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (!message) {
        if (failure) throw failure;
        if (exited) throw new Error(`${file}: the parsing worker stopped before the end of the file`);
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ('done' in message) return;
      if ('error' in message) throw new Error(message.error);
      for (const row of message.rows) {
        yield 'reason' in row
          ? { file, line: row.line, bytes: row.bytes, reason: row.reason }
          : { file, line: row.line, bytes: row.bytes, person: { id: row.id, copy: row.copy } };
      }
      worker.postMessage({ taken: message.rows.length });
    }
  } finally {
    await worker.terminate();
  }
}
