/**
 * What a test child's storage costs at its start (decision 0040, addendum of session 9): `tessera user create` on an
 * empty embedded database (it applies every migration first, as every test child once did) against the same on a
 * copy of a migrated one (server/src/test/pglite-template.ts). Rounds interleave the two; the median of the per-round
 * ratios (copy and start ÷ empty start, wall time) is printed with the load average. `npm run -w bench test-storage [rounds]`.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rounds = Number(process.argv[2] ?? 5);

/** Runs the CLI once on `dataDir`: its wall seconds. */
function userCreate(dataDir: string, n: number): Promise<{ wall: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli/main.ts', 'user', 'create', '--email', `bench-${n}@tessera.test`],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          TESSERA_PASSWORD: 'Bench-passw0rd!',
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      },
    );
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`tessera user create exited ${code}`));
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ wall });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const scratch = mkdtempSync(path.join(tmpdir(), 'tessera-bench-storage-'));
try {
  const template = path.join(scratch, 'template');
  await userCreate(template, 0); // the migrated database the copies are taken from
  const results: { empty: number; copy: number; ratio: number; load1: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const empty = await userCreate(path.join(scratch, `empty-${round}`), round);
    const copyDir = path.join(scratch, `copy-${round}`);
    const copyStart = process.hrtime.bigint();
    cpSync(path.join(template, 'pglite'), path.join(copyDir, 'pglite'), { recursive: true });
    const copied = Number(process.hrtime.bigint() - copyStart) / 1e9;
    const copy = await userCreate(copyDir, round);
    const product = copy.wall + copied;
    results.push({ empty: empty.wall, copy: product, ratio: product / empty.wall, load1: loadavg()[0]! });
    console.log(
      `round ${round}: empty ${empty.wall.toFixed(2)} s, copy+start ${product.toFixed(2)} s, ratio ${(product / empty.wall).toFixed(3)}, load ${loadavg()[0]!.toFixed(2)}`,
    );
  }
  console.log(
    `median ratio (copy ÷ empty, wall): ${median(results.map((r) => r.ratio)).toFixed(3)} over ${rounds} rounds; median load ${median(results.map((r) => r.load1)).toFixed(2)}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
