/**
 * The fault suite, template side (issue 12): customer templates that backtrack, allocate or hand out functions,
 * sent to the real server process. Each answers 422 naming the problem, nothing is charged, /healthz answers all
 * the while, and the process stays small afterwards.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { load, person } from '../features/identities/test-people';
import { createTemplate } from '../features/templates/repo';
import { signInOverHttp } from '../test/http-session';
import { emptyStorageEnv, freePort, runChild } from '../test/process';

const EMAIL = 'root@bombs.test';
const PASSWORD = 'Bombs-passw0rd!';
const BACKTRACK = `"${'a'.repeat(30)}!"`;

/** Each template, and a word its 422 must name. */
const BOMBS = [
  { name: 'match', expression: `{"m": $match(${BACKTRACK}, /(a+)+$/)}`, names: /ms|time/i },
  { name: 'replace', expression: `{"m": $replace(${BACKTRACK}, /(a+)+$/, "b")}`, names: /ms|time/i },
  { name: 'contains', expression: `{"m": $contains(${BACKTRACK}, /(a+)+$/)}`, names: /ms|time/i },
  { name: 'split', expression: `{"m": $split(${BACKTRACK}, /(a+)+$/)}`, names: /ms|time/i },
  { name: 'pad', expression: '{"p": $pad("", 100000000, "x")}', names: /bytes|KB|MB|memory/i },
  { name: 'function', expression: '{"f": function($x) { $x }}', names: /function/i },
  { name: 'native function', expression: '{"f": $uppercase}', names: /function/i },
] as const;

const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function prepare(env: Record<string, string>) {
  const database: Database = await openDatabase({
    url: env.DATABASE_URL ?? null,
    dataDir: env.DATABASE_URL ? null : env.DATA_DIR,
  });
  try {
    await migrate(database);
    const p = person();
    await load(database, p);
    const ids: Record<string, number> = {};
    for (const bomb of BOMBS) {
      const t = await createTemplate(database, {
        name: bomb.name,
        organizationId: null,
        createdBy: null,
        expression: bomb.expression,
        publish: true,
      });
      ids[bomb.name] = t.id;
    }
    return { email: p.emails[0]!.address, ids };
  } finally {
    await database.close();
  }
}

describe('template bombs', () => {
  it('answer 422 naming the limit, charge nothing, and never hold /healthz', async () => {
    const { env: storage, drop } = await emptyStorageEnv();
    const { email, ids } = await prepare(storage);
    const port = await freePort();
    const child = runChild(['server/src/main.ts'], {
      ...storage,
      PORT: String(port),
      SEED_IDENTITIES: '0',
      ROOT_EMAIL: EMAIL,
      ROOT_PASSWORD: PASSWORD,
    });
    // Every bomb answers 422 and, having run on a real record, is metered as served (decision 0044).
    let failed = 0;
    try {
      await child.waitFor('Tessera console:');
      const base = `http://127.0.0.1:${port}`;
      const cookie = await signInOverHttp(base, EMAIL, PASSWORD);
      const lookup = (template: number, format: string) =>
        fetch(
          `${base}/v2/identities/byEmail?email=${encodeURIComponent(email)}&template=${template}&format=${format}`,
          {
            headers: { cookie },
          },
        );

      for (const bomb of BOMBS) {
        for (const format of ['json', 'csv']) {
          failed++;
          let bombDone = false;
          let healthyDuringBomb = 0;
          const health = (async () => {
            while (!bombDone) {
              const res = await fetch(`${base}/healthz`);
              expect(res.status).toBe(200);
              if (!bombDone) healthyDuringBomb++;
            }
          })();
          const res = await lookup(ids[bomb.name]!, format);
          bombDone = true;
          await health;
          const body = (await res.json()) as { error: string; code: string };
          expect({ bomb: bomb.name, format, status: res.status }).toEqual({ bomb: bomb.name, format, status: 422 });
          expect(body.error).toMatch(bomb.names);
          expect(body.error).not.toContain(email);
          // The event loop kept serving while the template ran (the slow ones take their whole budget).
          if (bomb.names.source.includes('time')) expect(healthyDuringBomb).toBeGreaterThan(0);
        }
      }
      // A plain lookup still works after workers were ended and replaced.
      expect((await lookup(3, 'json')).status).toBe(200);
      const rss = residentMb(child.proc.pid!);
      console.log(`server resident memory after the template bombs: ${rss.toFixed(0)} MB`);
      expect(rss).toBeLessThan(1024);
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
    const database = await openDatabase({
      url: storage.DATABASE_URL ?? null,
      dataDir: storage.DATABASE_URL ? null : storage.DATA_DIR,
    });
    try {
      const [row] = await database.query<{ n: number; ok: number }>(
        `select count(*)::int as n, count(*) filter (where status = 200)::int as ok from usage`,
      );
      expect(row).toEqual({ n: 1 + failed, ok: 1 }); // the plain lookup, and each bomb with its 422
    } finally {
      await database.close();
      await drop();
    }
  }, 180_000);
});
