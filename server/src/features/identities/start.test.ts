/**
 * The outcome as a newcomer meets it: `npm start` on a new embedded database seeds generated people, and a
 * signed-in user looks them up, as JSON and as CSV, from the real server process.
 */
import { describe, expect, inject, it } from 'vitest';
import { signInOverHttp } from '../../test/http-session';
import { emptyStorageEnv, freePort, runChild } from '../../test/process';

const onPostgres = Boolean(inject('databaseUrl'));
describe('after npm start', () => {
  it.skipIf(onPostgres)('a signed-in user looks up the seeded people by id and e-mail, as JSON and CSV', async () => {
    const { env: storage, drop } = await emptyStorageEnv();
    const port = await freePort();
    const email = 'first@tessera.test';
    const password = 'Corr3ct-horse!';
    const child = runChild(['server/src/main.ts'], {
      ...storage,
      PORT: String(port),
      SEED_IDENTITIES: '300',
      ROOT_EMAIL: email,
      ROOT_PASSWORD: password,
    });
    try {
      await child.waitFor('Tessera console:');
      const base = `http://127.0.0.1:${port}`;
      const cookie = await signInOverHttp(base, email, password);

      const byId = await fetch(`${base}/v2/identities/byId?id=7`, { headers: { cookie } });
      expect(byId.status).toBe(200);
      const [person] = (
        (await byId.json()) as { identities: { id: number; score: number; emails: { address: string }[] }[] }
      ).identities;
      expect(person).toMatchObject({ id: 7, score: 100, matchedOn: ['id'] });

      const address = person!.emails[0]?.address;
      if (address) {
        const csv = await fetch(`${base}/v2/identities/byEmail?email=${encodeURIComponent(address)}&template=2`, {
          headers: { cookie, accept: 'text/csv' },
        });
        expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        const [header, row] = (await csv.text()).split('\r\n');
        expect(header).toBe('input.email,score,matchedOn,id,firstName,lastName,address,city,state,zip,email,phone');
        expect(row).toContain(',7,');
      }
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
      await drop();
    }
  });
});
