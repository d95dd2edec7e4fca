// The same package as a CommonJS consumer sees it (the exports map's require condition).
import { TesseraClient, TesseraError, VERSION } from '@tessera/client';
import { csvFile } from '@tessera/client/node';

export async function consumer(): Promise<unknown[]> {
  const client = new TesseraClient({ baseUrl: 'http://localhost:3000', apiKey: 'x'.repeat(48), auth: 'signed' });
  const reply = await client.byId('7', { retry: { retries: 1, onRetry: (event) => event.delayMs } });
  const id: number = reply.identities[0]!.id;
  // @ts-expect-error: not an auth mode
  new TesseraClient({ baseUrl: 'http://localhost:3000', apiKey: 'x', auth: 'basic' });
  const upload = await client.uploadCsv('byEmail', csvFile('emails.csv'));
  const error = new TesseraError({ status: 0, code: 'timeout', message: 'late' });
  return [id, upload.meta.requestId, error.code, VERSION];
}
