import { TesseraClient } from '@tessera/client';

const client = new TesseraClient({
  baseUrl: process.env.TESSERA_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.TESSERA_API_KEY, // a live key of your organization
});
const email = process.env.TESSERA_EMAIL ?? 'judith.miller@icloud.com';

// By input (email, phone, md5 or sha256: followed to whoever holds it), or by { identityId }.
const subscription = await client.subscriptions.create({ email });
console.log(`subscription ${subscription.id} follows identity ${subscription.identityId}`);
for await (const s of client.subscriptions.all()) console.log(s.id, s.identityId, s.input?.kind ?? 'identityId');
await client.subscriptions.delete(subscription.id);
