/**
 * The JavaScript client's suite (issue 17): builds the package, then drives the BUILT package (dist/esm through
 * import, dist/cjs through require) against a really started server with 200 seeded people; scripted HTTP servers on
 * loopback stand in where the real one cannot be made to answer so (503, a slow reply, a stalled stream).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBreakingRelay } from '../../support/proxies';
import { type RunResult, run, useClientServer } from '../../support/server';
import type { FullIdentity, RetryEvent } from '../src/index';

type Pkg = typeof import('../src/index');
type NodePkg = typeof import('../src/node');

const PKG = fileURLToPath(new URL('..', import.meta.url));
const REPO = path.resolve(PKG, '../..');
const DIST = path.join(PKG, 'dist');
const suiteStarted = Date.now();

const env = useClientServer();

// The build starts at once, beside the server's start; the tests wait for both.
const building: Promise<RunResult> = run('npm', ['run', 'build'], { cwd: PKG, timeoutMs: 180_000 });

let T: Pkg;
let N: NodePkg;
/** A seeded person with at least one of every key (e-mail, phone, IP, device, vehicle), Full template. */
let person: FullIdentity;
let rateLimitScenario: Promise<RateLimitOutcome | Error>;
const tmp = mkdtempSync(path.join(tmpdir(), 'tessera-js-client-'));

const client = (options: Partial<ConstructorParameters<Pkg['TesseraClient']>[0]> = {}) =>
  new T.TesseraClient({ baseUrl: env.baseUrl, apiKey: env.apiKey.key, ...options });

const ids = (identities: { id?: unknown }[]) => identities.map((i) => i.id);

beforeAll(async () => {
  const built = await building;
  if (built.code !== 0) throw new Error(`npm run build failed (${built.code}):\n${built.stdout}\n${built.stderr}`);
  T = (await import(pathToFileURL(path.join(DIST, 'esm/index.js')).href)) as Pkg;
  N = (await import(pathToFileURL(path.join(DIST, 'esm/node.js')).href)) as NodePkg;
  const some = await client().byIdBatch(Array.from({ length: 40 }, (_, i) => String(i + 1)));
  const rich = some.results
    .flatMap((r) => r.identities)
    .find((p) => p.emails.length && p.phones.length && p.ips.length && p.devices.length && p.vehicles.length);
  if (!rich) throw new Error('no seeded person among ids 1-40 has every kind of key');
  person = rich;
  // The 429 test waits for the server's minute window to turn: it runs beside the other tests, awaited last.
  rateLimitScenario = provokeRateLimit().catch((error: Error) => error);
}, 240_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  console.log(`clients/js suite: ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);
});

// ---------------------------------------------------------------------------------------------------------------
// A scripted HTTP server on loopback (a test double), for replies the real server cannot be made to give.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function scripted(
  handle: (req: IncomingMessage, res: ServerResponse, seen: Seen, n: number) => void | Promise<void>,
) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    seen.push(entry);
    await handle(req, res, entry, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'scripted-request', ...headers });
  res.end(JSON.stringify(body));
};
const unavailable = {
  error: 'Usage could not be recorded. Please retry.',
  code: 'unavailable',
  requestId: 'scripted-503',
};
const found = { requestId: 'scripted-request', identities: [{ score: 100, matchedOn: ['id'], id: 1 }] };
const batchFound = { requestId: 'scripted-request', results: [{ input: '1', identities: [] }] };
/** A valid-looking key for scripted servers. */
const STUB_KEY = `${'k'.repeat(16)}${'s'.repeat(32)}`;

// ---------------------------------------------------------------------------------------------------------------

describe('the package', () => {
  it('builds ESM, CommonJS and declarations for every target of its exports map, version from package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(PKG, 'package.json'), 'utf8'));
    const targets: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') targets.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(pkg.exports);
    expect(targets).toEqual(
      expect.arrayContaining(['./dist/esm/index.js', './dist/cjs/index.js', './dist/esm/index.d.ts']),
    );
    for (const target of [...targets, pkg.main, pkg.module, pkg.types])
      expect(existsSync(path.join(PKG, target))).toBe(true);
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(JSON.parse(readFileSync(path.join(DIST, 'esm/package.json'), 'utf8')).type).toBe('module');
    expect(JSON.parse(readFileSync(path.join(DIST, 'cjs/package.json'), 'utf8')).type).toBe('commonjs');
    expect(T.VERSION).toBe(pkg.version);
    expect(T.TesseraClient.VERSION).toBe(pkg.version);
    expect(readFileSync(path.join(PKG, 'CHANGELOG.md'), 'utf8')).toContain(`## ${pkg.version}`);
    expect(readFileSync(path.join(PKG, '.gitignore'), 'utf8')).toMatch(/^dist\/$/m);
  });

  it('keeps Node-only code out of the main entry, so it runs in browsers', () => {
    for (const format of ['esm', 'cjs']) {
      for (const file of ['index', 'client', 'auth', 'body', 'csv', 'errors', 'md5', 'version', 'generated/openapi']) {
        const code = readFileSync(path.join(DIST, format, `${file}.js`), 'utf8');
        expect(code, `${format}/${file}.js`).not.toMatch(
          /["']node:|\bprocess\.|\bBuffer\b|require\(["'](fs|path|crypto|http)/,
        );
      }
    }
    expect(readFileSync(path.join(DIST, 'esm/node.js'), 'utf8')).toContain('node:fs/promises');
  });

  it('require() of the CommonJS build (by package name) makes calls, and its errors are TesseraErrors of the ESM build', async () => {
    const require = createRequire(path.join(PKG, 'package.json'));
    const cjs = require('@tessera/client') as Pkg;
    const cjsNode = require('@tessera/client/node') as NodePkg;
    expect(require.resolve('@tessera/client')).toBe(path.join(DIST, 'cjs/index.js'));
    expect(typeof cjsNode.csvFile).toBe('function');
    const c = new cjs.TesseraClient({ baseUrl: env.baseUrl, apiKey: env.apiKey.key });
    expect(ids((await c.byId(String(env.identityId))).identities)).toEqual([env.identityId]);
    const error = await c.byEmail('not-an-address').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(cjs.TesseraError);
    expect(error).toBeInstanceOf(T.TesseraError);
  });

  it('has types generated from docs/openapi.json, up to date (the check fails on drift)', async () => {
    const check = await run('node', ['scripts/generate.mjs', '--check'], { cwd: PKG });
    expect(check.code, check.stderr).toBe(0);
    const generated = readFileSync(path.join(PKG, 'src/generated/openapi.ts'), 'utf8');
    const doc = JSON.parse(readFileSync(path.join(REPO, 'docs/openapi.json'), 'utf8'));
    expect(generated).toContain(`export const API_VERSION = '${doc.info.version}'`);
    expect(T.API_VERSION).toBe(doc.info.version);
    expect([...T.ENDPOINTS].sort()).toEqual(
      Object.keys(doc.paths)
        .filter((p) => /^\/v2\/identities\/by/.test(p))
        .map((p) => p.split('/').pop())
        .sort(),
    );
    // A changed document: the check says so and fails.
    doc.components.schemas.LookupRecord.properties.nickname = { type: 'string', description: 'New in the document' };
    const changed = path.join(tmp, 'openapi.json');
    writeFileSync(changed, JSON.stringify(doc));
    const drift = await run('node', ['scripts/generate.mjs', '--check', '--openapi', changed], { cwd: PKG });
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('npm run generate');
  });

  it('gives ESM and CommonJS TypeScript consumers its declarations (no @types/node needed), typed by the options', async () => {
    const project = path.join(tmp, 'consumer');
    mkdirSync(path.join(project, 'node_modules/@tessera'), { recursive: true });
    symlinkSync(PKG, path.join(project, 'node_modules/@tessera/client'), 'dir');
    for (const file of ['consumer.mts', 'consumer.cts']) {
      writeFileSync(path.join(project, file), readFileSync(path.join(PKG, 'test/types', file)));
    }
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom', 'dom.iterable'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    const tsc = await run('node', [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', project], {
      cwd: project,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });
});

describe('lookups', () => {
  it('each of the ten endpoints finds the person by one input (GET), typed FullIdentity', async () => {
    const c = client();
    const email = person.emails[0]!.address;
    const single = {
      byEmail: () => c.byEmail(email),
      byPhone: () => c.byPhone(person.phones[0]!.number),
      byIp: () => c.byIp(person.ips[0]!.ip),
      byDevice: () => c.byDevice({ device: person.devices[0]!.deviceId }),
      byMd5: () => c.byMd5(person.emails[0]!.md5),
      bySha256: () => c.bySha256(person.emails[0]!.sha256),
      byPii: () => c.byPii({ firstName: person.firstName, lastName: person.lastName, zip: person.zip }),
      byVehicle: () => c.byVehicle(person.vehicles[0]!.vin),
      byId: () => c.byId(String(person.id)),
      byAny: () => c.byAny({ email, phone: person.phones[0]!.number }),
    } satisfies Record<(typeof T.ENDPOINTS)[number], unknown>;
    expect(Object.keys(single).sort()).toEqual([...T.ENDPOINTS].sort());
    for (const [endpoint, call] of Object.entries(single)) {
      const reply = await call();
      expect(ids(reply.identities), endpoint).toContain(person.id);
      const me = reply.identities.find((i) => i.id === person.id)!;
      expect(me.lastName).toBe(person.lastName);
      expect(typeof me.score).toBe('number');
      expect(reply.requestId).toBe(reply.meta.requestId);
      expect(reply.meta.status).toBe(200);
      // The reply is the API's JSON exactly: meta is not part of it.
      expect(Object.keys(JSON.parse(JSON.stringify(reply)))).toEqual(['requestId', 'identities']);
    }
    // The generic form, and a string where only named inputs make sense.
    expect(ids((await c.lookup('byEmail', { email })).identities)).toContain(person.id);
    await expect(c.lookup('byPii', 'Robert Smith' as never)).rejects.toThrow(/named inputs/);
  });

  it('each endpoint takes a batch (POST) with metadata echoed in order, and none where none was sent', async () => {
    const c = client();
    const email = person.emails[0]!.address;
    const inputs: Record<string, Record<string, string>> = {
      byEmail: { email },
      byPhone: { phone: person.phones[0]!.number },
      byIp: { ip: person.ips[0]!.ip },
      byDevice: { device: person.devices[0]!.deviceId },
      byMd5: { md5: person.emails[0]!.md5 },
      bySha256: { sha256: person.emails[0]!.sha256 },
      byPii: { firstName: person.firstName, lastName: person.lastName, zip: person.zip },
      byVehicle: { vin: person.vehicles[0]!.vin },
      byId: { id: String(person.id) },
      byAny: { email },
    };
    for (const endpoint of T.ENDPOINTS) {
      const metadata = { customerId: `c-${endpoint}`, rank: 3, vip: true, note: null };
      const batch = await c.batch(endpoint, [{ ...inputs[endpoint]!, metadata }] as never);
      expect(batch.results[0]!.metadata, endpoint).toEqual(metadata);
      expect(batch.results[0]!.input, endpoint).toEqual(inputs[endpoint]);
      expect(ids(batch.results[0]!.identities), endpoint).toContain(person.id);
      expect(batch.requestId).toBe(batch.meta.requestId);
    }
    const mixed = await c.byEmailBatch([{ email, metadata: { customerId: 'c-1' } }, 'nobody@nowhere.example', email]);
    expect(mixed.results.map((r) => [r.input, r.metadata, ids(r.identities).includes(person.id)])).toEqual([
      [{ email }, { customerId: 'c-1' }, true],
      ['nobody@nowhere.example', undefined, false],
      [email, undefined, true],
    ]);
    expect(Object.keys(JSON.parse(JSON.stringify(mixed.results[1])))).toEqual(['input', 'identities']);
  });

  it('honours the options: template, minScore, explain, limit and format (JSON and CSV, GET and POST)', async () => {
    const c = client();
    const email = person.emails[0]!.address;
    const compact = await c.byEmail(email, { template: 3 });
    expect(Object.keys(compact.identities[0]!).sort()).toEqual(['emails', 'id', 'matchedOn', 'score']);
    expect(compact.identities[0]!.emails).toContain(email);

    const plain = await c.byEmail(email);
    const score = plain.identities.find((i) => i.id === person.id)!.score;
    expect(plain.identities[0]!.explain).toBeUndefined();
    expect(ids((await c.byEmail(email, { minScore: score })).identities)).toContain(person.id);
    if (score < 100) expect((await c.byEmail(email, { minScore: Math.min(100, score + 1) })).identities).toEqual([]);

    const explained = await c.byEmail(email, { explain: true, template: 3 });
    expect(explained.identities[0]!.explain).toEqual(expect.objectContaining({ keys: expect.any(Array) }));

    const many = await c.byPii(
      { firstName: person.firstName, lastName: person.lastName, state: person.state },
      { limit: 1 },
    );
    expect(many.identities.length).toBeLessThanOrEqual(1);

    const csv = await c.byEmail(email, { format: 'csv', template: 3 });
    expect(csv).toBeInstanceOf(T.CsvReply);
    expect(csv.meta.headers.get('content-type')).toMatch(/^text\/csv/);
    const records = [];
    for await (const record of csv.records()) records.push(record);
    expect(records).toEqual([expect.objectContaining({ 'input.email': email, id: String(person.id) })]);

    const batchCsv = await c.byEmailBatch([{ email, metadata: { customerId: 'c-9' } }], { format: 'csv', template: 3 });
    const rows = [];
    for await (const row of batchCsv) rows.push(row);
    expect(rows[0]!.slice(0, 3)).toEqual(['input.email', 'metadata.customerId', 'score']);
    expect(rows[1]!.slice(0, 2)).toEqual([email, 'c-9']);
  });
});

describe('CSV uploads (PUT), the reply streamed back', () => {
  const csvOf = (lines: string[]) => `${lines.join('\n')}\n`;

  it('from text, bytes, a Blob, a web ReadableStream, a Node stream and a file path, passing other columns through', async () => {
    const c = client();
    const email = person.emails[0]!.address;
    const text = csvOf(['customer,email,"note, quoted"', `c-1,${email},"a, b"`, 'c-2,nobody@nowhere.example,x']);
    const file = path.join(tmp, 'people.csv');
    writeFileSync(file, text);
    const sources = {
      text,
      bytes: new TextEncoder().encode(text),
      blob: new Blob([text], { type: 'text/csv' }),
      webStream: new Blob([text]).stream(),
      nodeStream: Readable.from([text.slice(0, 20), text.slice(20)]),
      filePath: N.csvFile(file),
    };
    for (const [kind, source] of Object.entries(sources)) {
      const reply = await c.byEmailCsv(source, { template: 3 });
      const records = [];
      for await (const record of reply.records()) records.push(record);
      expect(
        records.map((r) => [r.customer, r.email, r['note, quoted'], r.id, r.error]),
        kind,
      ).toEqual([
        ['c-1', email, 'a, b', String(person.id), ''],
        ['c-2', 'nobody@nowhere.example', 'x', '', ''],
      ]);
      expect(reply.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
    await expect(c.byEmailCsv(N.csvFile(path.join(tmp, 'missing.csv')))).rejects.toThrow(/ENOENT/);
  });

  it('reads the reply while the upload is still being sent (a generator that waits for the first row)', {
    timeout: 60_000,
  }, async () => {
    const c = client();
    let firstRowAt = 0;
    let sentAll = 0;
    let release!: () => void;
    const firstRow = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* rows() {
      yield 'id,n\n';
      for (let i = 1; i <= 600; i++) yield `${(i % 200) + 1},${i}\n`;
      // The server has its first 500 rows: the reply begins. Only once we have read some of it does the rest go.
      await firstRow;
      for (let i = 601; i <= 700; i++) yield `${(i % 200) + 1},${i}\n`;
      sentAll = Date.now();
    }
    const reply = await c.byIdCsv(rows(), { template: 3, compression: false });
    expect(reply.meta.headers.get('content-encoding')).toBeNull();
    let count = 0;
    for await (const _line of reply.lines()) {
      count += 1;
      if (count === 2) {
        firstRowAt = Date.now();
        release();
      }
    }
    expect(count).toBe(701);
    expect(firstRowAt).toBeGreaterThan(0);
    expect(firstRowAt).toBeLessThanOrEqual(sentAll);
  });

  it('leaving the reply early stops the upload too (its source is closed)', async () => {
    let sent = 0;
    let stoppedAt = 0;
    // A source that never waits for I/O: the client still lets the reply in while it sends.
    async function* rows() {
      try {
        yield 'id\n';
        for (; sent < 1_000_000; sent++) yield `${(sent % 200) + 1}\n`;
      } finally {
        stoppedAt = Date.now();
      }
    }
    const reply = await client().byIdCsv(rows(), { template: 3, compression: false });
    expect(sent).toBeLessThan(1_000_000);
    let read = 0;
    for await (const _row of reply) if (++read === 3) break;
    const leftAt = Date.now();
    await vi.waitFor(() => expect(stoppedAt).toBeGreaterThan(0), { timeout: 10_000 });
    expect(stoppedAt - leftAt).toBeLessThan(2000);
    expect(sent).toBeLessThan(1_000_000);
  });

  it('answers a bad header with a TesseraError carrying the server message, and marks a bad row in its error cell', async () => {
    const c = client();
    const bad = await c.byEmailCsv('customer\nc-1\n').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(T.TesseraError);
    expect(bad).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'The header names no input of byEmail; its inputs are email (other columns are passed through).',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const reply = await c.byEmailCsv('email\nnot-an-address\n', { template: 3 });
    const records = [];
    for await (const record of reply.records()) records.push(record);
    expect(records[0]!.error).toBe('line 2: email: Please provide a valid email address.');
  });

  it('undoes the formula guard in rows and records, and keeps it in raw lines or with unguard: false', async () => {
    const c = client();
    const text = 'email,formula\nnobody@nowhere.example,=1+2\n';
    const rows = [];
    for await (const row of await c.byEmailCsv(text, { template: 3 })) rows.push(row);
    expect(rows[1]!.slice(0, 2)).toEqual(['nobody@nowhere.example', '=1+2']);
    const raw = [];
    for await (const row of (await c.byEmailCsv(text, { template: 3 })).rows({ unguard: false })) raw.push(row);
    expect(raw[1]![1]).toBe("'=1+2");
    expect(T.parseCsvRecord('a,"b ""c""",,"d\r\ne"')).toEqual(['a', 'b "c"', '', 'd\r\ne']);
  });
});

describe('keys', () => {
  it('signed keys: Bearer {keyId}{time}{HMAC-SHA256 of time keyed with the secret}, accepted by the server', async () => {
    const signed = client({ auth: 'signed' });
    expect(ids((await signed.byId(String(env.identityId))).identities)).toEqual([env.identityId]);
    const batch = await signed.byIdBatch([String(env.identityId)]);
    expect(ids(batch.results[0]!.identities)).toEqual([env.identityId]);

    const header = await T.authorizationHeader(env.apiKey.key, 'signed');
    const m = /^Bearer ([A-Za-z0-9]{16})(\d{13})([0-9a-f]{64})$/.exec(header)!;
    expect(m).not.toBeNull();
    expect(m[1]).toBe(env.apiKey.id);
    expect(Math.abs(Number(m[2]) - Date.now())).toBeLessThan(5_000);
    expect(m[3]).toBe(createHmac('sha256', env.apiKey.secret).update(m[2]!).digest('hex'));
  });

  it('legacy keys: Bearer {keyId}{time}{MD5 of time + secret}, accepted for a legacy key, refused (401) for another', async () => {
    const legacyKey = await env.makeKey({ name: 'client suite legacy', legacy: true });
    const legacy = client({ apiKey: legacyKey.key, auth: 'legacy' });
    expect(ids((await legacy.byId(String(env.identityId))).identities)).toEqual([env.identityId]);
    const header = await T.authorizationHeader(legacyKey.key, 'legacy', 1_764_000_000_000);
    expect(header).toBe(
      `Bearer ${legacyKey.id}1764000000000${createHash('md5').update(`1764000000000${legacyKey.secret}`).digest('hex')}`,
    );
    const refused = await client({ auth: 'legacy' })
      .byId(String(env.identityId))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('test keys: tk_test_ stays before the key id in every form, and the sandbox answers', async () => {
    const testKey = await env.makeKey({ name: 'client suite test', mode: 'test' });
    expect(testKey.key.startsWith('tk_test_')).toBe(true);
    const samples = (await (await fetch(`${env.baseUrl}/v2/samples?mode=test`)).json()) as {
      samples: { id: number; email: string };
    };
    for (const auth of ['plain', 'signed'] as const) {
      const sandbox = client({ apiKey: testKey.key, auth });
      const found = await sandbox.byEmail(samples.samples.email);
      expect(ids(found.identities), auth).toContain(samples.samples.id);
      expect(found.meta.charge?.cost ?? 0).toBe(0);
    }
    const header = await T.authorizationHeader(testKey.key, 'signed');
    expect(header).toMatch(new RegExp(`^Bearer tk_test_${testKey.id}\\d{13}[0-9a-f]{64}$`));
    // The sandbox never holds a real person: the suite's person is not found by the test key.
    const none = await client({ apiKey: testKey.key }).byId(String(env.identityId));
    expect(none.identities).toEqual([]);
  });

  it("the client's own MD5 equals node:crypto's", () => {
    const inputs = ['', 'a', 'abc', 'message digest', 'é漢字🙂', '1764000000000secret'];
    for (let n = 0; n < 200; n++) inputs.push(randomBytes(n).toString('base64').slice(0, n));
    for (const input of inputs) expect(T.md5Hex(input), input).toBe(createHash('md5').update(input).digest('hex'));
    const bytes = randomBytes(1000);
    expect(T.md5Hex(bytes)).toBe(createHash('md5').update(bytes).digest('hex'));
  });

  it('refuses a malformed key before sending anything', () => {
    expect(() => client({ apiKey: 'short' })).toThrow(TypeError);
    expect(() => client({ apiKey: undefined as unknown as string })).toThrow(/API key/);
    expect(() => client({ baseUrl: 'tessera.example' })).toThrow(/baseUrl/);
  });
});

describe('errors', () => {
  it('401: a wrong secret gives status, code, the server message and the request id', async () => {
    const wrong = `${env.apiKey.id}${'A'.repeat(32)}`;
    const error = await client({ apiKey: wrong })
      .byId('1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(T.TesseraError);
    const e = error as InstanceType<Pkg['TesseraError']>;
    expect(e).toMatchObject({
      name: 'TesseraError',
      status: 401,
      code: 'unauthorized',
      message: 'This API key is not valid.',
    });
    expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.requestId).toBe(e.headers?.get('x-request-id'));
    expect(e.attempts).toBe(1);
    // Refused while a long upload is still being sent: the same error, not a broken connection.
    async function* many() {
      yield 'id\n';
      for (let i = 0; i < 200_000; i++) yield `${(i % 200) + 1}\n`;
    }
    const upload = await client({ apiKey: wrong })
      .byIdCsv(many())
      .catch((x: unknown) => x);
    expect(upload).toMatchObject({ status: 401, code: 'unauthorized', message: 'This API key is not valid.' });
  });

  it("400: an invalid input gives validation_failed, the server's message and the fields", async () => {
    const e = (await client()
      .byEmail('not-an-address')
      .catch((x: unknown) => x)) as InstanceType<Pkg['TesseraError']>;
    expect(e).toBeInstanceOf(T.TesseraError);
    expect(e.status).toBe(400);
    expect(e.code).toBe('validation_failed');
    expect(e.message).toBe('Invalid input querystring.email: Please provide a valid email address.');
    expect(e.fields).toEqual([{ path: 'querystring.email', message: 'Please provide a valid email address.' }]);
    expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const batch = (await client()
      .byEmailBatch(['a@b.example', 'nope'])
      .catch((x: unknown) => x)) as InstanceType<Pkg['TesseraError']>;
    expect(batch.fields?.map((f) => f.path)).toEqual(['body.inputs.1.email']);
    const option = (await client()
      .byEmail('a@b.example', { limit: 1000 })
      .catch((x: unknown) => x)) as InstanceType<Pkg['TesseraError']>;
    expect(option).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(option.message).toMatch(/limit/);
  });

  it('a reply that is not JSON, and a server nobody answers at', async () => {
    const s = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>a proxy page</html>');
    });
    try {
      const e = await new T.TesseraClient({ baseUrl: s.url, apiKey: STUB_KEY }).byId('1').catch((x: unknown) => x);
      expect(e).toMatchObject({ status: 200, code: 'invalid_response' });
    } finally {
      await s.close();
    }
    const gone = await new T.TesseraClient({ baseUrl: s.url, apiKey: STUB_KEY, retry: false })
      .byId('1')
      .catch((x: unknown) => x);
    expect(gone).toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('retries', () => {
  it('503 with Retry-After: waits that long, then succeeds; POST keeps its Idempotency-Key', async () => {
    const s = await scripted((req, res, _seen, n) => {
      if (n % 2 === 1) json(res, 503, unavailable, { 'retry-after': '1' });
      else json(res, 200, req.method === 'POST' ? batchFound : found);
    });
    try {
      const events: RetryEvent[] = [];
      const c = new T.TesseraClient({
        baseUrl: s.url,
        apiKey: STUB_KEY,
        auth: 'signed',
        retry: { onRetry: (e) => events.push(e) },
      });
      const started = Date.now();
      const reply = await c.byId('1');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(ids(reply.identities)).toEqual([1]);
      expect(reply.meta.attempts).toBe(2);
      expect(events).toEqual([
        expect.objectContaining({ attempt: 1, delayMs: 1000, retryAfterMs: 1000, method: 'GET' }),
      ]);
      expect(events[0]!.error).toMatchObject({ status: 503, code: 'unavailable', requestId: 'scripted-503' });

      const batch = await c.byIdBatch(['1']);
      expect(batch.meta.attempts).toBe(2);
      const posts = s.seen.filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(posts[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
      expect(posts[1]!.body).toBe(posts[0]!.body);
      expect(batch.meta.idempotencyKey).toBe(posts[0]!.headers['idempotency-key']);
      // Each attempt's signed token is made afresh, a second later.
      const tokens = posts.map((r) => /^Bearer k{16}(\d+)([0-9a-f]{64})$/.exec(r.headers.authorization ?? '')!);
      expect(Number(tokens[1]![1]) - Number(tokens[0]![1])).toBeGreaterThanOrEqual(1000);
      for (const [, time, signature] of tokens) {
        expect(signature).toBe(createHmac('sha256', 's'.repeat(32)).update(time!).digest('hex'));
      }
    } finally {
      await s.close();
    }
  });

  it('503 without Retry-After: exponential backoff, then the last error when retries run out', async () => {
    const s = await scripted((_req, res) => json(res, 503, unavailable));
    try {
      const events: RetryEvent[] = [];
      const c = new T.TesseraClient({
        baseUrl: s.url,
        apiKey: STUB_KEY,
        retry: { retries: 3, baseDelayMs: 40, maxDelayMs: 1000, onRetry: (e) => events.push(e) },
      });
      const e = (await c.byId('1').catch((x: unknown) => x)) as InstanceType<Pkg['TesseraError']>;
      expect(e).toMatchObject({ status: 503, code: 'unavailable', attempts: 4, message: unavailable.error });
      expect(s.seen).toHaveLength(4);
      expect(events.map((x) => x.attempt)).toEqual([1, 2, 3]);
      events.forEach((x, i) => {
        const full = 40 * 2 ** i;
        expect(x.retryAfterMs).toBeUndefined();
        expect(x.delayMs).toBeGreaterThanOrEqual(full / 2);
        expect(x.delayMs).toBeLessThanOrEqual(full);
      });
      s.seen.length = 0;
      await expect(c.byId('1', { retry: false })).rejects.toMatchObject({ status: 503, attempts: 1 });
      expect(s.seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('a Retry-After longer than maxRetryAfterMs is thrown at once; a streamed upload is not retried, a text one is with the same key', async () => {
    let retryAfter = '600';
    const s = await scripted((_req, res, _seen, n) => {
      if (n % 2 === 1) json(res, 503, unavailable, { 'retry-after': retryAfter });
      else {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end('id,score\r\n1,100\r\n');
      }
    });
    try {
      const c = new T.TesseraClient({ baseUrl: s.url, apiKey: STUB_KEY, retry: { maxRetryAfterMs: 60_000 } });
      const long = (await c.byId('1').catch((x: unknown) => x)) as InstanceType<Pkg['TesseraError']>;
      expect(long).toMatchObject({ status: 503, attempts: 1, retryAfterMs: 600_000 });
      retryAfter = '0';
      s.seen.length = 0;
      const streamed = await c.byIdCsv(Readable.from(['id\n1\n'])).catch((x: unknown) => x);
      expect(streamed).toMatchObject({ status: 503, attempts: 1 });
      s.seen.length = 0;
      const reply = await c.byIdCsv('id\n1\n', { idempotencyKey: 'upload-1' });
      expect(await reply.text()).toBe('id,score\r\n1,100\r\n');
      expect(reply.meta.attempts).toBe(2);
      expect(s.seen.map((r) => [r.method, r.body, r.headers['idempotency-key'], r.headers['content-type']])).toEqual([
        ['PUT', 'id\n1\n', 'upload-1', 'text/csv'],
        ['PUT', 'id\n1\n', 'upload-1', 'text/csv'],
      ]);
    } finally {
      await s.close();
    }
  });

  it('429 from the real server: waits the Retry-After it gives, then the call is served', async () => {
    const outcome = await rateLimitScenario;
    if (outcome instanceof Error) throw outcome;
    const { events, elapsedMs, reply } = outcome;
    expect(events.length).toBeGreaterThanOrEqual(1);
    const first = events[0]!;
    expect(first.error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(first.error.message).toMatch(/limited to 20 requests a minute/);
    const retryAfter = Number(first.error.headers?.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(first.error.headers?.get('ratelimit-reset')).toBe(String(retryAfter));
    expect(first.retryAfterMs).toBe(retryAfter * 1000);
    expect(first.delayMs).toBe(first.retryAfterMs);
    expect(elapsedMs).toBeGreaterThanOrEqual(first.delayMs);
    expect(ids(reply.identities)).toEqual([env.identityId]);
    expect(reply.meta.attempts).toBe(events.length + 1);
    expect(reply.meta.rateLimit.limit).toBe(20);
    expect(reply.meta.rateLimit.policy).toBe('"key";q=20;w=60');
  });
});

describe('usage and charges', () => {
  it("a key reads its own usage after making calls, and each lookup's reply tells what it cost", async () => {
    const made = await env.makeKey({ name: 'client suite usage' });
    const c = client({ apiKey: made.key });
    const from = new Date(Date.now() - 3_600_000);
    const to = new Date(Date.now() + 3_600_000);
    const first = await c.byId(String(env.identityId), { template: 3 });
    // Root's calls are metered at no contract: the cost is there, as a number of dollars.
    expect(first.meta.charge.cost).toBe(0);
    const batch = await c.byIdBatch([String(env.identityId)], { template: 3 });
    expect(typeof batch.meta.charge.cost).toBe('number');
    const calls = await c.usageCalls({ from, to, keyId: made.id, pageSize: 10 });
    expect(calls.calls.map((call) => [call.keyId, call.method, call.path])).toEqual([
      [made.id, 'POST', '/byId'],
      [made.id, 'GET', '/byId'],
    ]);
    expect(calls.next).toBeNull();
    expect(calls.meta.status).toBe(200);
    expect(calls.meta.charge.cost).toBeUndefined();
    const totals = await c.usageTotals({ from: from.toISOString(), to, keyId: made.id });
    expect(totals.totals.requests).toBe(2);
    expect(totals.from).toBe(from.toISOString());
    const series = await c.usageSeries({ from, to, keyId: made.id, interval: 'hour', metric: 'inputs' });
    expect(series.points.reduce((sum, p) => sum + p.value, 0)).toBe(2);
    expect(JSON.parse(JSON.stringify(series))).not.toHaveProperty('meta');
  });

  it('refuses a malformed query (400) and an unknown key (401) with TesseraError', async () => {
    await expect(client().usageTotals({ tz: 'Mars/Olympus' })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
    await expect(client({ apiKey: 'A1'.repeat(24) }).usageCalls()).rejects.toMatchObject({ status: 401 });
  });
});

describe('idempotency keys', () => {
  it('the same key and request replays the kept reply (not run again); another request under it is a 422', async () => {
    const c = client();
    const key = `suite-${Date.now()}`;
    const inputs = [String(env.identityId)];
    const first = await c.byIdBatch(inputs, { idempotencyKey: key, template: 3 });
    expect(first.meta.replayed).toBe(false);
    const again = await c.byIdBatch(inputs, { idempotencyKey: key, template: 3 });
    expect(again.meta.replayed).toBe(true);
    expect(again.meta.idempotencyKey).toBe(key);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    const other = await c.byIdBatch(['1'], { idempotencyKey: key, template: 3 }).catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 422, code: 'unprocessable' });

    const upload = `id\n${env.identityId}\n`;
    const put1 = await c.byIdCsv(upload, { idempotencyKey: `${key}-put`, template: 3 });
    const text1 = await put1.text();
    const put2 = await c.byIdCsv(upload, { idempotencyKey: `${key}-put`, template: 3 });
    expect(put2.meta.replayed).toBe(true);
    expect(await put2.text()).toBe(text1);
  });

  it('makes a fresh key for each call by default, and sends none with idempotencyKey: false', async () => {
    const s = await scripted((_req, res) => json(res, 200, batchFound));
    try {
      const c = new T.TesseraClient({ baseUrl: s.url, apiKey: STUB_KEY });
      const a = await c.byIdBatch(['1']);
      const b = await c.byIdBatch(['1']);
      await c.byIdBatch(['1'], { idempotencyKey: false });
      await c.byId('1');
      const keys = s.seen.map((r) => r.headers['idempotency-key']);
      expect(keys[0]).toBe(a.meta.idempotencyKey);
      expect(keys[1]).toBe(b.meta.idempotencyKey);
      expect(keys[0]).not.toBe(keys[1]);
      expect(keys.slice(2)).toEqual([undefined, undefined]);
    } finally {
      await s.close();
    }
  });
});

describe('calls that got no reply (issue 31)', () => {
  /** A relay to the real server whose first connection is reset when the request arrives; a client through it. */
  async function broken() {
    const relay = await startBreakingRelay(env.baseUrl);
    relay.arm();
    const retried: RetryEvent[] = [];
    const c = client({ baseUrl: relay.url, retry: { baseDelayMs: 10, onRetry: (e) => retried.push(e) } });
    return { relay, c, retried };
  }

  it('a GET whose connection was reset is sent again, after the backoff', async () => {
    const { relay, c, retried } = await broken();
    try {
      const reply = await c.byEmail(env.email);
      expect(relay.broken).toBe(1);
      expect(reply.meta.attempts).toBe(2);
      expect(ids(reply.identities)).toContain(env.identityId);
      expect(retried.map((e) => [e.attempt, e.error.status, e.error.code])).toEqual([[1, 0, 'network_error']]);
    } finally {
      await relay.close();
    }
  });

  it('a batch is sent again under the Idempotency-Key it carries by default; one sent without a key is not', async () => {
    const { relay, c } = await broken();
    try {
      const reply = await c.byEmailBatch([env.email]);
      expect(relay.broken).toBe(1);
      expect(reply.meta.attempts).toBe(2);
      // The server kept the reply under the key the client made: the same request under it is a replay.
      const again = await client().byEmailBatch([env.email], { idempotencyKey: reply.meta.idempotencyKey! });
      expect(again.meta.replayed).toBe(true);
      // A relay of its own: fetch keeps the connection of the call above alive, and would send this one on it.
      const other = await startBreakingRelay(env.baseUrl);
      other.arm();
      const keyless = client({ baseUrl: other.url, retry: { baseDelayMs: 10 } });
      const refused = await keyless.byEmailBatch([env.email], { idempotencyKey: false }).catch((e: unknown) => e);
      await other.close();
      expect(refused).toMatchObject({ status: 0, code: 'network_error', attempts: 1 });
      expect(other.broken).toBe(1);
    } finally {
      await relay.close();
    }
  });

  it('a text upload is sent again under its key; retry: { networkErrors: false } throws at once', async () => {
    const { relay, c } = await broken();
    try {
      const reply = await c.byEmailCsv(`email\n${env.email}\n`);
      expect(reply.meta.attempts).toBe(2);
      expect(await reply.text()).toContain(env.email);
      const other = await startBreakingRelay(env.baseUrl);
      other.arm();
      const strict = client({ baseUrl: other.url, retry: { networkErrors: false } });
      const failed = await strict.byEmail(env.email).catch((e: unknown) => e);
      expect(failed).toMatchObject({ code: 'network_error', attempts: 1 });
      await other.close();
    } finally {
      await relay.close();
    }
  });
});

describe('ids as numbers (issue 31)', () => {
  it('byId, byIdBatch and named inputs take a number as the Python and Java clients do', async () => {
    const c = client();
    expect(ids((await c.byId(env.identityId)).identities)).toContain(env.identityId);
    expect(ids((await c.byId({ id: env.identityId })).identities)).toContain(env.identityId);
    const batch = await c.byIdBatch([env.identityId, { id: env.identityId, metadata: { row: 1 } }]);
    expect(batch.results[0]!.input).toBe(String(env.identityId));
    expect(batch.results[1]!.metadata).toEqual({ row: 1 });
    for (const r of batch.results) expect(ids(r.identities)).toContain(env.identityId);
    await expect(c.byId(2 ** 53)).rejects.toThrow(TypeError);
    await expect(c.byId(1.5)).rejects.toThrow(/whole number/);
  });
});

describe('timeouts and cancelling', () => {
  it('a reply slower than timeoutMs is a timeout; an aborted signal is aborted; a stalled CSV stream can be cancelled', async () => {
    const s = await scripted(async (req, res) => {
      if (req.url?.includes('stall')) {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write('id,score\r\n1,100\r\n');
        return; // and never ends
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
      if (!res.destroyed) json(res, 200, found);
    });
    try {
      // networkErrors: false, so the timed-out GET is not sent again (that is tested against the real server above).
      const c = new T.TesseraClient({
        baseUrl: s.url,
        apiKey: STUB_KEY,
        timeoutMs: 300,
        retry: { networkErrors: false },
      });
      let started = Date.now();
      const late = await c.byId('1').catch((x: unknown) => x);
      expect(late).toMatchObject({ status: 0, code: 'timeout', name: 'TesseraError' });
      expect(Date.now() - started).toBeLessThan(2500);

      started = Date.now();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const aborted = await c.byId('1', { signal: controller.signal, timeoutMs: 10_000 }).catch((x: unknown) => x);
      expect(aborted).toMatchObject({ status: 0, code: 'aborted' });
      expect(Date.now() - started).toBeLessThan(2500);

      // The timeout covers the start of a CSV reply, not its length; the signal covers its reading too.
      const reading = new AbortController();
      const reply = await c.byAny({ email: 'stall@x.example' }, { format: 'csv', signal: reading.signal });
      const rows: string[][] = [];
      const read = (async () => {
        for await (const row of reply) {
          rows.push(row);
          if (rows.length === 2) setTimeout(() => reading.abort(), 500);
        }
      })();
      await expect(read).rejects.toMatchObject({ code: 'aborted' });
      expect(rows).toEqual([
        ['id', 'score'],
        ['1', '100'],
      ]);
    } finally {
      await s.close();
    }
  });
});

describe('README', () => {
  it('its first example is examples/first-call.mjs, which runs as written and prints the identities as JSON', async () => {
    const readme = readFileSync(path.join(PKG, 'README.md'), 'utf8');
    const firstBlock = /```(\w*)\n([\s\S]*?)```/.exec(readme)!;
    const example = readFileSync(path.join(PKG, 'examples/first-call.mjs'), 'utf8');
    expect(firstBlock[1]).toBe('js');
    expect(firstBlock[2]).toBe(example);
    for (const name of ['TESSERA_BASE_URL', 'TESSERA_API_KEY', 'TESSERA_EMAIL'])
      expect(example).toContain(`process.env.${name}`);

    const result = await run('node', ['examples/first-call.mjs'], { cwd: PKG, env: env.env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const identities = JSON.parse(result.stdout) as { id: number; emails: { address: string }[] }[];
    expect(ids(identities)).toContain(env.identityId);
    expect(identities.find((i) => i.id === env.identityId)!.emails.map((e) => e.address)).toContain(env.email);
  });
});

describe('in a browser', () => {
  const chrome = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && existsSync(p),
  );
  it.skipIf(!chrome)(
    'the ESM build runs in Chromium: plain, signed and legacy keys, a batch, a Blob upload',
    async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: chrome,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage();
        // A page on the server's own origin (the API refuses cross-origin calls), the built files served beside it.
        await page.route(`${env.baseUrl}/__client/**`, (route) => {
          const file = new URL(route.request().url()).pathname.slice('/__client/'.length);
          return route.fulfill({ path: path.join(DIST, 'esm', file), contentType: 'text/javascript' });
        });
        await page.route(`${env.baseUrl}/__client.html`, (route) =>
          route.fulfill({ body: '<!doctype html><title>client</title>', contentType: 'text/html' }),
        );
        await page.goto(`${env.baseUrl}/__client.html`);
        // Loaded as a browser loads a package's ESM build: a module script importing it, file by file.
        await page.addScriptTag({
          type: 'module',
          content: "import * as client from '/__client/index.js'; window.tesseraClient = client;",
        });
        await page.waitForFunction(() => 'tesseraClient' in window);
        const legacyKey = await env.makeKey({ name: 'client suite browser legacy', legacy: true });
        const out = await page.evaluate(
          async ({ baseUrl, key, legacy, email }) => {
            const T = (window as unknown as { tesseraClient: Pkg }).tesseraClient;
            const found: Record<string, unknown> = { secure: window.isSecureContext };
            for (const [auth, apiKey] of [
              ['plain', key],
              ['signed', key],
              ['legacy', legacy],
            ] as const) {
              const c = new T.TesseraClient({ baseUrl, apiKey, auth });
              found[auth] = (await c.byEmail(email, { template: 3 })).identities.map((i) => i.id);
            }
            const c = new T.TesseraClient({ baseUrl, apiKey: key });
            const batch = await c.byEmailBatch([{ email, metadata: { from: 'browser' } }], { template: 3 });
            found.batch = [batch.results[0]!.metadata, batch.results[0]!.identities.map((i) => i.id)];
            const reply = await c.byEmailCsv(new Blob([`email,tag\n${email},b-1\n`], { type: 'text/csv' }), {
              template: 3,
            });
            const records = [];
            for await (const record of reply.records()) records.push([record.tag, record.id]);
            found.upload = records;
            found.error = await c
              .byEmail('nope')
              .catch((e: InstanceType<Pkg['TesseraError']>) => [e instanceof T.TesseraError, e.status, e.code]);
            try {
              const stream = new Blob([`email\n${email}\n`]).stream();
              await (await c.byEmailCsv(stream, { template: 3 })).text();
              found.streamUpload = 'sent';
            } catch (e) {
              found.streamUpload = (e as Error).message;
            }
            return found;
          },
          {
            baseUrl: env.baseUrl,
            key: env.apiKey.key,
            legacy: legacyKey.key,
            email: env.email,
          },
        );
        const id = env.identityId;
        expect(out).toMatchObject({
          secure: true,
          plain: [id],
          signed: [id],
          legacy: [id],
          batch: [{ from: 'browser' }, [id]],
          upload: [['b-1', String(id)]],
          error: [true, 400, 'validation_failed'],
        });
        // Chromium sends a stream body only over HTTP/2; the error says what to do instead.
        expect(out.streamUpload).toMatch(/^sent$|upload a Blob or File instead/);
      } finally {
        await browser.close();
      }
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// 429 against the real server. A key limited to 20 calls a minute is used up; the server's windows are whole
// minutes, so its Retry-After runs to the next minute plus 3 s. The client must wait that long and then be served.

interface RateLimitOutcome {
  events: RetryEvent[];
  elapsedMs: number;
  reply: Awaited<ReturnType<InstanceType<Pkg['TesseraClient']>['byId']>>;
}

async function provokeRateLimit(): Promise<RateLimitOutcome> {
  const key = await env.makeKey({ name: 'client suite rate limit', rateLimit: 20 });
  const url = `${env.baseUrl}/v2/identities/byId?id=${env.identityId}&template=3`;
  for (let round = 0; round < 3; round++) {
    // Not in the last seconds of a minute, so the 20 calls and ours fall in one window.
    const into = Date.now() % 60_000;
    if (into > 56_000) await new Promise((resolve) => setTimeout(resolve, 61_000 - into));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(url, { headers: { authorization: `Bearer ${key.key}` } }).then((r) => r.arrayBuffer()),
      ),
    );
    const probe = await fetch(url, { headers: { authorization: `Bearer ${key.key}` } });
    await probe.arrayBuffer();
    if (probe.status !== 429) continue;
    const events: RetryEvent[] = [];
    const started = Date.now();
    const reply = await client({ apiKey: key.key }).byId(String(env.identityId), {
      retry: { retries: 3, onRetry: (e) => events.push(e) },
    });
    if (events.length === 0) continue; // the window turned between the probe and the call: again
    return { events, elapsedMs: Date.now() - started, reply };
  }
  throw new Error('the key was never refused with 429 in three tries');
}
