/**
 * Issue 5's outcome as a newcomer meets it, on the real server process: a new embedded database has the Demo
 * organization with a contract; a user made in it by the CLI signs in, makes an API key, sees its secret once, and
 * calls byEmail with it as curl would; the call is in usage with its metrics and cost. A user outside any contract
 * gets 402.
 */
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { signInOverHttp } from '../../test/http-session';
import { emptyStorageEnv, freePort, runChild, runCli } from '../../test/process';
import { DEMO_PRICES } from '../contracts/demo';

const onPostgres = Boolean(inject('databaseUrl'));
const headers = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };

describe('API access after npm start', () => {
  it.skipIf(onPostgres)(
    'a Demo user makes a key and calls the API with it; usage shows the call and its cost',
    async () => {
      const { env: storage, drop } = await emptyStorageEnv();
      const port = await freePort();
      const env: Record<string, string> = { ...storage, PORT: String(port), SEED_IDENTITIES: '200' };
      const password = 'Corr3ct-horse!';
      try {
        // First start: seeds people and the Demo organization.
        let child = runChild(['server/src/main.ts'], env);
        await child.waitFor('Tessera console:');
        child.proc.kill('SIGTERM');
        await child.exited;
        const member = await runCli(
          ['user', 'create', '--email', 'dev@demo.test', '--password', password, '--organization', 'Demo'],
          env,
        );
        expect(member.output).toContain('in Demo');
        const loner = await runCli(['user', 'create', '--email', 'loner@demo.test', '--password', password], env);
        expect(loner.code).toBe(0);

        child = runChild(['server/src/main.ts'], env);
        await child.waitFor('Tessera console:');
        const base = `http://127.0.0.1:${port}`;
        let requestId = '';
        try {
          const cookie = await signInOverHttp(base, 'dev@demo.test', password);
          const made = await fetch(`${base}/v2/keys`, {
            method: 'POST',
            headers: { ...headers, cookie },
            body: JSON.stringify({ name: 'curl' }),
          });
          expect(made.status).toBe(201);
          const key = Object.values(
            ((await made.json()) as { keys: Record<string, { id: string; secret: string }> }).keys,
          )[0]!;
          const listed = await (await fetch(`${base}/v2/keys`, { headers: { cookie } })).text();
          expect(listed).not.toContain(key.secret);

          const person = await fetch(`${base}/v2/identities/byId?id=3`, {
            headers: { authorization: `Bearer ${key.id}${key.secret}` },
          });
          const email = ((await person.json()) as { identities: { emails: { address: string }[] }[] }).identities[0]!
            .emails[0]?.address;
          expect(email).toBeDefined();
          const res = await fetch(`${base}/v2/identities/byEmail?email=${encodeURIComponent(email!)}`, {
            headers: { authorization: `Bearer ${key.id}${key.secret}` },
          });
          expect(res.status).toBe(200);
          requestId = res.headers.get('x-request-id')!;
          expect(((await res.json()) as { identities: { id: number }[] }).identities[0]!.id).toBe(3);

          const lonerCookie = await signInOverHttp(base, 'loner@demo.test', password);
          const refused = await fetch(`${base}/v2/identities/byId?id=3`, { headers: { cookie: lonerCookie } });
          expect(refused.status).toBe(402);
        } finally {
          child.proc.kill('SIGTERM');
          await child.exited;
        }
        const database = await openDatabase({ url: null, dataDir: storage.DATA_DIR! });
        try {
          const [row] = await database.query<{ key_id: string; identities: number; cost: string }>(
            'select key_id, identities, cost from usage where request_id = $1',
            [requestId],
          );
          expect(row!.key_id).toHaveLength(16);
          expect(row!.identities).toBe(1);
          expect(Number(row!.cost)).toBeCloseTo(DEMO_PRICES.pricePerRequest + DEMO_PRICES.pricePerIdentity, 9);
        } finally {
          await database.close();
        }
      } finally {
        await drop();
      }
    },
    // Two server starts and three CLI runs on a new embedded database: past the default 30 s on a busy machine.
    120_000,
  );
});
