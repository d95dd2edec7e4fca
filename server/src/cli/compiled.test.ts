import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { generatedPeople, jsonl, ownIdBase, scratchFile } from '../features/people/import/test-records';
import { freePort, runChild, runCli, storageEnv } from '../test/process';
import { scratchBuild } from '../test/scratch-build';

const build = scratchBuild();
const outdir = () => build.folder();
const cli = () => path.join(outdir(), 'cli.js');

describe('the compiled CLI', () => {
  it('is built beside the server, with the import parsing thread, and needs no TypeScript loader', () => {
    for (const file of ['cli.js', 'parse-worker.js', 'main.js', 'migrations/meta/_journal.json']) {
      expect(existsSync(path.join(outdir(), file)), file).toBe(true);
    }
    for (const file of ['cli.js', 'parse-worker.js']) {
      expect(readFileSync(path.join(outdir(), file), 'utf8'), file).not.toMatch(/from ["']tsx|import\(["']tsx/);
    }
    // `serve` imports the server's bundle beside it rather than holding a copy that would serve as it loads.
    expect(readFileSync(cli(), 'utf8')).toContain('import("./main.js")');
  });

  it('answers --help, --version and a usage error as the source does', async () => {
    const help = await runCli(['import', '--help'], {}, cli());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: tessera import FILE');
    const version = await runCli(['--version'], { TESSERA_VERSION: '7.1.2-test' }, cli());
    expect(version.stdout).toBe('7.1.2-test\n');
    const wrong = await runCli(['generate', '--colour'], {}, cli());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(`tessera generate: Unknown option '--colour'. Try 'tessera generate --help'.\n`);
  });

  it('migrates and imports (on PostgreSQL through its parsing thread), with exit code 3 for a refused row', async () => {
    const env = storageEnv();
    const migrated = await runCli(['migrate'], env, cli());
    expect(migrated.code, migrated.output).toBe(0);
    const people = generatedPeople(25, 'compiled-cli', ownIdBase());
    const file = scratchFile('people.jsonl', `${jsonl(people)}{"id": "not a number"}\n`);
    const res = await runCli(['import', file], env, cli());
    expect(res.code, res.output).toBe(3);
    expect(res.stdout).toContain('Loaded 25 identities, rejected 1 rows');
    expect(res.stderr).toContain('26 rows, 1 refused');
  });

  it('serves with the compiled server, once, and drains on SIGTERM', async () => {
    const port = await freePort();
    const server = runChild([cli(), 'serve'], { ...storageEnv(), PORT: String(port), SEED_IDENTITIES: '0' }, 'plain');
    try {
      await server.waitFor('Tessera console:');
      const live = await fetch(`http://127.0.0.1:${port}/livez`);
      expect(live.status).toBe(200);
    } finally {
      server.proc.kill('SIGTERM');
    }
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output().match(/Tessera console:/g)).toHaveLength(1);
  }, 180_000);

  it('runs through the bin launcher when fresh, and says to build it when stale', async () => {
    // launch() on this build; the bin itself runs it on server/dist.
    const launcher = path.join(outdir(), 'launch.mjs');
    const script = pathToFileURL(path.join(REPO_ROOT, 'scripts/tessera.mjs')).href;
    writeFileSync(launcher, `import { launch } from '${script}';\nawait launch(${JSON.stringify(outdir())});\n`);
    // Newer or older than every source whatever is edited meanwhile.
    const future = new Date(Date.now() + 86_400_000);
    utimesSync(cli(), future, future);
    const fresh = await runCli(['-V'], { TESSERA_VERSION: '7.1.2-test' }, launcher);
    expect(fresh.code, fresh.output).toBe(0);
    expect(fresh.stdout).toBe('7.1.2-test\n');
    const past = new Date('2000-01-01T00:00:00Z');
    utimesSync(cli(), past, past);
    const stale = await runCli(['-V'], {}, launcher);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toBe(
      `tessera: the compiled CLI (${cli()}) is older than its sources: run \`npm run build\` in ${REPO_ROOT}, or \`npm run tessera -- <command>\` in a development checkout.\n`,
    );
    rmSync(cli());
    expect((await runCli(['-V'], {}, launcher)).stderr).toContain('is not built: run `npm run build`');
  });
});
