/**
 * @tessera/client/node: everything in @tessera/client, and what only Node has: uploading a CSV file by its path, and
 * saving a bulk job's result to one. (A Node stream needs nothing from here: any async iterable of chunks is a
 * CsvSource.)
 */
import { open, rm } from 'node:fs/promises';
import type { TesseraClient } from './client.js';
import type { CallOptions, ReplyMeta } from './types.js';

export * from './index.js';

/**
 * A CSV file to upload, read as it is sent, in constant memory; opened again for each attempt, so its upload is
 * retried on 429 and 503. A missing file fails the call before anything is sent.
 *
 * ```js
 * const reply = await client.byEmailCsv(csvFile('people.csv'));
 * ```
 */
export function csvFile(path: string | URL): () => Promise<AsyncIterable<Uint8Array>> {
  return async () => {
    const handle = await open(path, 'r');
    return handle.createReadStream() as AsyncIterable<Uint8Array>;
  };
}

/** What `saveJobResult` wrote. */
export interface SavedJobResult {
  /** Bytes written. */
  bytes: number;
  format: 'csv' | 'jsonl';
  meta: ReplyMeta;
}

/**
 * Downloads a job's result into a file (replacing it), a piece at a time as it arrives, never the whole of it in
 * memory. A job that has not ended (409) or whose result was deleted (410) is thrown before the file is touched; a
 * download cut short removes the part written and throws.
 *
 * ```js
 * await saveJobResult(client, job.id, 'people-result.csv');
 * ```
 */
export async function saveJobResult(
  client: TesseraClient,
  jobId: string,
  path: string | URL,
  options?: CallOptions,
): Promise<SavedJobResult> {
  const result = await client.jobs.result(jobId, options);
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'w');
  } catch (error) {
    await result.cancel();
    throw error;
  }
  let bytes = 0;
  try {
    for await (const chunk of result.chunks()) {
      await file.write(chunk);
      bytes += chunk.byteLength;
    }
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true }).catch(() => undefined);
    throw error;
  }
  await file.close();
  return { bytes, format: result.format, meta: result.meta };
}
