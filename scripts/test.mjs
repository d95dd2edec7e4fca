// npm test: unit and integration tests on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), then the
// browser tests in real Chromium when it is installed.
//
// Vitest runs one test file at a time on a two-core machine (its default is one worker fewer than the cores) and
// keeps projects whose files must not overlap (the browser tests) for the very end, so one run would wait on every
// file in turn. Most of that time is spent waiting on a database, a server child or Chromium, not on the CPU, so the
// independent groups run as separate Vitest processes, three at a time (decision 0040): the in-process suites, the
// PostgreSQL suite (one database of its own), the browser tests in thirds (servers of their own on free ports) and
// the client libraries.
// TEST_GROUPS=serial runs them one after another; arguments (test files, a filter) run one Vitest as before.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildClientsIfNeeded } from './build-clients.mjs';
import { buildConsoleIfNeeded, root } from './build-if-needed.mjs';
import { chromiumPath } from './chromium.mjs';

const e2eOnly = process.argv.includes('--e2e-only');
const extraArgs = process.argv.slice(2).filter((a) => a !== '--e2e-only');

const groups = [];
if (!e2eOnly) {
  groups.push({ name: 'unit', projects: ['common', 'server', 'web'] });
  if (process.env.TEST_DATABASE_URL) groups.push({ name: 'postgres', projects: ['server-postgres'] });
}

const chrome = chromiumPath();
if (chrome) {
  buildConsoleIfNeeded();
  buildClientsIfNeeded(); // the Client Libraries page installs them
  // The browser specs in thirds (each spec starts its own server and browser, so they may overlap), so a third can
  // start in whatever place frees first.
  for (const shard of [1, 2, 3])
    groups.push({ name: `browser-${shard}`, projects: ['e2e'], args: [`--shard=${shard}/3`] });
} else {
  console.log('Browser tests skipped: no Chromium found; run `apt-get install -y chromium` or set CHROME_PATH.');
  if (e2eOnly) process.exit(1);
}
// The client libraries' suites (Python, Java, the JavaScript client against a server): short, so they go last.
if (!e2eOnly) groups.push({ name: 'clients', projects: ['clients'] });

/**
 * How many groups run at once: three keep two cores busy while groups wait on databases, servers and Chromium, and
 * more only slow each other down (decision 0040). The groups start in the order above as places free up.
 */
const places = process.env.TEST_GROUP_PLACES ?? '3';
if (!/^[1-9]\d*$/.test(places)) {
  console.error(`TEST_GROUP_PLACES must be a whole number from 1, not "${places}".`);
  process.exit(2);
}
const PLACES = Number(places);

// One scratch folder for the whole run (server/src/test/scratch-dir.ts), removed when the run ends.
const scratch = mkdtempSync(path.join(tmpdir(), 'tessera-run-'));
const env = { ...process.env, TESSERA_TEST_TMP: scratch, ...(chrome ? { CHROME_PATH: chrome } : {}) };
const finish = (code) => {
  rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  process.exit(code);
};
const vitest = path.join(root, 'node_modules/.bin/vitest');
const projectArgs = (projects) => projects.flatMap((p) => ['--project', p]);

/** Runs one Vitest; with a prefix its lines are tagged and its closing summary is read back. */
function run(args, prefix) {
  return new Promise((resolve) => {
    const child = spawn(vitest, args, { cwd: root, env, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const summary = { passed: 0, failed: 0, skipped: 0, seen: false, failures: [] };
    if (prefix) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) emit(line);
        });
        stream.on('end', () => rest && emit(rest));
      }
    }
    function emit(line) {
      const counts = /^tests: (\d+) passed, (\d+) failed, (\d+) skipped$/.exec(line);
      if (counts) Object.assign(summary, { passed: +counts[1], failed: +counts[2], skipped: +counts[3], seen: true });
      if (line.startsWith('failed: ')) summary.failures.push(line);
      process.stdout.write(`[${prefix}] ${line}\n`);
    }
    child.on('close', (code) => resolve({ code: code ?? 1, summary, ended: Date.now() }));
  });
}

// Files or a filter, a single group, or the browser specs alone (`npm run test:e2e`): one Vitest.
if (extraArgs.length > 0 || groups.length <= 1 || e2eOnly) {
  const projects = [...new Set(groups.flatMap((g) => g.projects))];
  const { code } = await run(['run', ...projectArgs(projects), ...extraArgs], null);
  finish(code);
}

const started = Date.now();
const serial = process.env.TEST_GROUPS === 'serial';
const results = [];
const argsOf = (group) => ['run', ...projectArgs(group.projects), ...(group.args ?? [])];
if (serial) {
  for (const group of groups) results.push(await run(argsOf(group), group.name));
} else {
  const queue = groups.map((group, i) => ({ group, i }));
  const place = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      results[next.i] = await run(argsOf(next.group), next.group.name);
  };
  await Promise.all(Array.from({ length: Math.min(PLACES, groups.length) }, place));
}

const total = { passed: 0, failed: 0, skipped: 0 };
groups.forEach((group, i) => {
  const { code, summary, ended } = results[i];
  // A group that ended badly without printing its counts (a crash, a failed global setup) still fails the run.
  if (code !== 0 && summary.failed === 0) summary.failed = 1;
  total.passed += summary.passed;
  total.failed += summary.failed;
  total.skipped += summary.skipped;
  const seconds = Math.round((ended - started) / 1000);
  console.log(
    `${group.name}: exit ${code}, ${summary.passed} passed, ${summary.failed} failed, done after ${seconds} s`,
  );
});
// The failed tests again, last, so the tail of a long log names them.
const failures = groups.flatMap((group, i) => results[i].summary.failures.map((line) => `[${group.name}] ${line}`));
if (failures.length > 0) console.log(`\n${failures.join('\n')}`);
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
finish(results.every((r) => r.code === 0) ? 0 : 1);
