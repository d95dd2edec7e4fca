import { TesseraClient } from '@tessera/client';

const client = new TesseraClient({
  baseUrl: process.env.TESSERA_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.TESSERA_API_KEY,
});
const email = process.env.TESSERA_EMAIL ?? 'judith.miller@icloud.com';

const { identities } = await client.byEmail(email);
console.log(JSON.stringify(identities, null, 2));
