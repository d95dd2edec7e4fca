/**
 * The Java client's suite (issue 17): builds clients/java with javac alone (build.sh), runs its JUnit 5 tests against
 * a really started server (bulk jobs run) with keys made for the run (plain, legacy, one limited to 30 requests a
 * minute for the 429 test, and one of an organization for subscriptions), and runs the README's first example exactly
 * as written, expecting the seeded person's identity, and its bulk job and subscription examples.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BreakingRelay,
  type RecordingProxy,
  startBreakingRelay,
  startRecordingProxy,
} from '../../support/proxies';
import { run, useClientServer } from '../../support/server';

const here = fileURLToPath(new URL('..', import.meta.url));
const server = useClientServer({ organizationKey: true });
// LiveNetworkTest's proxy (it lists what it carried) and relay (it breaks a connection when armed), issue 31.
let proxy: RecordingProxy;
let relay: BreakingRelay;
beforeAll(async () => {
  proxy = await startRecordingProxy();
  relay = await startBreakingRelay(server.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await relay?.close();
});

const version = () => /^ {2}<version>(.+)<\/version>$/m.exec(readFileSync(`${here}pom.xml`, 'utf8'))?.[1];

describe('Java client', () => {
  it('builds with javac and passes its JUnit suite against the server', async () => {
    const legacy = await server.makeKey({ name: 'java suite legacy', legacy: true });
    const limited = await server.makeKey({ name: 'java suite limited', rateLimit: 30 });
    const started = Date.now();
    const result = await run('bash', ['build.sh'], {
      cwd: here,
      env: server.env({
        TESSERA_IDENTITY_ID: String(server.identityId),
        TESSERA_LEGACY_KEY: legacy.key,
        TESSERA_LIMITED_KEY: limited.key,
        TESSERA_ORG_KEY: server.organizationKey!.key,
        TESSERA_PROXY_URL: proxy.url,
        TESSERA_RELAY_URL: relay.url,
        TESSERA_RELAY_CONTROL: relay.controlUrl,
      }),
      timeoutMs: 280_000,
    });
    const output = `${result.stdout}\n${result.stderr}`;
    if (result.code !== 0) console.log(output);
    expect(result.code, 'build.sh exit code (output above)').toBe(0);
    expect(output).toMatch(/\[\s+0 tests failed\s+\]/);
    // No test was skipped for want of the server's settings.
    expect(output).toMatch(/\[\s+0 tests aborted\s+\]/);
    expect(output).toMatch(/\[\s+0 tests skipped\s+\]/);
    const passed = Number(/\[\s+(\d+) tests successful\s+\]/.exec(output)?.[1]);
    expect(passed).toBeGreaterThan(100);
    const retried = /429 retried after Retry-After: .*/.exec(output)?.[0];
    console.log(`Java client: ${passed} tests passed in ${Math.round((Date.now() - started) / 1000)} s; ${retried}`);
  }, 290_000);

  it("runs the README's first example as written", async () => {
    const readme = readFileSync(`${here}README.md`, 'utf8');
    const first = /```java\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(first, 'the README opens with examples/FirstCall.java').toBe(
      readFileSync(`${here}examples/FirstCall.java`, 'utf8'),
    );
    // As the README runs it: the built jar on the class path, the example as a source file.
    const jar = `out/tessera-client-${version()}.jar`;
    const built = await run('bash', ['build.sh', 'compile'], { cwd: here, timeoutMs: 120_000 });
    expect(built.code, built.stderr).toBe(0);
    const result = await run('java', ['-cp', jar, 'examples/FirstCall.java'], {
      cwd: here,
      env: server.env(),
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const identities = JSON.parse(result.stdout) as { id: number; emails: { address: string }[] }[];
    expect(identities.map((i) => i.id)).toContain(server.identityId);
    const person = identities.find((i) => i.id === server.identityId)!;
    expect(person.emails.map((e) => e.address)).toContain(server.email);
  }, 120_000);

  it("runs the README's bulk job and subscription examples as written (examples/BulkJob.java, Subscribe.java)", async () => {
    const blocks = [...readFileSync(`${here}README.md`, 'utf8').matchAll(/```java\n([\s\S]*?)```/g)].map((m) => m[1]);
    for (const name of ['BulkJob.java', 'Subscribe.java']) {
      expect(blocks, name).toContain(readFileSync(`${here}examples/${name}`, 'utf8'));
    }
    const built = await run('bash', ['build.sh', 'compile'], { cwd: here, timeoutMs: 120_000 });
    expect(built.code, built.stderr).toBe(0);
    const jar = `${here}out/tessera-client-${version()}.jar`;
    // In a folder of its own, as a reader runs it beside their customers.csv.
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-java-examples-'));
    try {
      writeFileSync(path.join(dir, 'customers.csv'), `ref,email\nc-1,${server.email}\nc-2,nobody@example.com\n`);
      const bulk = await run('java', ['-cp', jar, `${here}examples/BulkJob.java`], {
        cwd: dir,
        env: server.env(),
        timeoutMs: 60_000,
      });
      expect(bulk.code, bulk.stderr).toBe(0);
      expect(bulk.stdout).toMatch(/completed: 2 of 2 rows\n1 of 2 rows matched; \d+ bytes in customers-result\.csv\n$/);
      expect(readFileSync(path.join(dir, 'customers-result.csv'), 'utf8')).toContain(`c-1,${server.email},`);

      const subscribed = await run('java', ['-cp', jar, `${here}examples/Subscribe.java`], {
        cwd: dir,
        env: server.env({ TESSERA_API_KEY: server.organizationKey!.key }),
        timeoutMs: 60_000,
      });
      expect(subscribed.code, subscribed.stderr).toBe(0);
      const made = /^subscription (\d+) follows identity (\d+)\n/.exec(subscribed.stdout);
      expect(made?.[2]).toBe(String(server.identityId));
      expect(subscribed.stdout).toContain(`\n${made?.[1]} ${server.identityId} email\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
