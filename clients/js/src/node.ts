/**
 * @tessera/client/node: everything in @tessera/client, and what only Node has: uploading a CSV file by its path.
 * (A Node stream needs nothing from here: any async iterable of chunks is a CsvSource.)
 */
import { open } from 'node:fs/promises';

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
