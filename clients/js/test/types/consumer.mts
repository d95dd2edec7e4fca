// Compiled by the suite (tsc, module nodenext, no @types/node) against the built package's declarations, as an ESM
// consumer resolves them through the exports map. The @ts-expect-error lines must stay errors.
import { type CsvReply, type FullIdentity, type Identity, type TesseraClient, TesseraError } from '@tessera/client';
import { csvFile, saveJobResult } from '@tessera/client/node';

export async function consumer(client: TesseraClient): Promise<unknown[]> {
  const full = await client.byEmail('a@b.example');
  const id: number = full.identities[0]!.id;
  const sha256: string | undefined = full.identities[0]?.emails[0]?.sha256;
  const first: FullIdentity | undefined = full.identities[0];

  const compact = await client.byEmail('a@b.example', { template: 2, minScore: 80, explain: true, limit: 3 });
  const free: Identity | undefined = compact.identities[0];
  // @ts-expect-error: another template's identity is free-form, so its id is unknown
  const notANumber: number = compact.identities[0]!.id;

  const csv: CsvReply = await client.byEmail('a@b.example', { format: 'csv' });
  const pii = await client.byPii({ firstName: 'Robert', lastName: 'Smith', zip: '62701' });
  // @ts-expect-error: byPii takes named inputs only
  await client.byPii('Robert Smith');
  // @ts-expect-error: an option the API does not know
  await client.byEmail('a@b.example', { minscore: 3 });

  const batch = await client.byEmailBatch(['a@b.example', { email: 'c@d.example', metadata: { customerId: 'c-1' } }]);
  const metadata: Record<string, string | number | boolean | null> | undefined = batch.results[0]?.metadata;
  // @ts-expect-error: metadata is one level deep
  await client.byEmailBatch([{ email: 'a@b.example', metadata: { nested: { no: 1 } } }]);
  const generic = await client.batch('byPhone', ['+14155550123'], { idempotencyKey: 'order-1' });

  const upload = await client.byIdCsv(csvFile('ids.csv'), { template: 3, compression: false });
  const rows: string[][] = [];
  for await (const row of upload) rows.push(row);
  try {
    await client.byId('1');
  } catch (error) {
    if (error instanceof TesseraError) rows.push([error.code, String(error.status), error.requestId ?? '']);
  }
  const job = await client.jobs.submit('byEmail', csvFile('emails.csv'), { format: 'jsonl', template: 3 });
  const total: number = job.rows.total;
  // @ts-expect-error: a job's result is csv or jsonl
  await client.jobs.submit('byEmail', 'email\n', { format: 'xml' });
  const ended = await client.jobs.wait(job.id, { intervalMs: 1_000, timeoutMs: 60_000 });
  for await (const item of (await client.jobs.result(ended.id)).items()) rows.push([item.error ?? '']);
  const saved: number = (await saveJobResult(client, ended.id, 'result.jsonl')).bytes;
  const subscription = await client.subscriptions.create({ email: 'a@b.example', template: 2 });
  const identityId: number = subscription.identityId;
  // @ts-expect-error: a subscription's id is a number
  await client.subscriptions.get('1');
  return [
    id,
    sha256,
    first,
    free,
    notANumber,
    csv,
    pii,
    metadata,
    generic,
    rows,
    full.meta.requestId,
    total,
    saved,
    identityId,
  ];
}
