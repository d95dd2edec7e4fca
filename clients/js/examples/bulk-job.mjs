import { csvFile, saveJobResult, TesseraClient } from '@tessera/client/node';

const client = new TesseraClient({
  baseUrl: process.env.TESSERA_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.TESSERA_API_KEY,
});

// customers.csv: a header row naming byEmail's input (email) beside your own columns, then a customer a row.
const job = await client.jobs.submit('byEmail', csvFile('customers.csv'), { template: 3, format: 'csv' });
const done = await client.jobs.wait(job.id, {
  intervalMs: 2_000,
  timeoutMs: 30 * 60_000,
  onProgress: ({ status, rows }) => console.log(`${status}: ${rows.done} of ${rows.total} rows`),
});
if (done.status !== 'completed') throw new Error(`Job ${done.id} ${done.status}: ${done.error}`);
const saved = await saveJobResult(client, done.id, 'customers-result.csv');
console.log(`${done.rows.matched} of ${done.rows.total} rows matched; ${saved.bytes} bytes in customers-result.csv`);
