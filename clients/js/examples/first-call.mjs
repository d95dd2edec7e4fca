import { TesseraClient } from '@tessera/client';

const client = new TesseraClient({
  baseUrl: process.env.TESSERA_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.TESSERA_API_KEY,
});
const email = process.env.TESSERA_EMAIL ?? 'p-622a0bfe-fee8-4b07-b89b-b6c601d56a08@people.example';

const { identities } = await client.byEmail(email);
console.log(JSON.stringify(identities, null, 2));
