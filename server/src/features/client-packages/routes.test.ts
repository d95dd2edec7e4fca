/**
 * The client packages' list and downloads (issue 17): public, only files the list names, nothing else reachable
 * through the path, and an empty list (not an error) where no packages were built.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/harness';

const dir = mkdtempSync(path.join(tmpdir(), 'tessera-client-packages-'));
const JAR = Buffer.from('PK\u0003\u0004 a jar');
writeFileSync(path.join(dir, 'tessera-client-1.2.3.jar'), JAR);
writeFileSync(path.join(dir, 'secret.txt'), 'not listed');
writeFileSync(path.join(dir, 'java-README.md'), '# Tessera for Java');
writeFileSync(
  path.join(dir, 'index.json'),
  JSON.stringify({
    packages: [
      {
        language: 'java',
        file: 'tessera-client-1.2.3.jar',
        version: '1.2.3',
        bytes: JAR.length,
        sha256: 'ab',
        readme: 'java-README.md',
      },
      { language: 'python', missing: 'python3 is not installed' },
      { language: 'cobol', file: 'secret.txt' },
      { language: 'js', file: '../index.json' },
    ],
  }),
);

let t: TestApp;
let empty: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { CLIENTS_DIR: dir } });
  empty = await buildTestApp({ env: { CLIENTS_DIR: path.join(dir, 'none') }, database: t.database });
});
afterAll(async () => {
  await t.app.close();
  await empty.app.close();
});

describe('client packages', () => {
  it('lists the packages of the known languages to anyone, with why one is missing', async () => {
    const res = await t.app.inject('/v2/clients');
    expect(res.statusCode).toBe(200);
    expect(res.json().clientPackages).toEqual([
      {
        language: 'java',
        file: 'tessera-client-1.2.3.jar',
        version: '1.2.3',
        bytes: JAR.length,
        sha256: 'ab',
        readme: 'java-README.md',
      },
      { language: 'python', missing: 'python3 is not installed' },
      { language: 'js', file: '../index.json' },
    ]);
  });

  it('serves a listed file as an attachment, byte for byte', async () => {
    const res = await t.app.inject('/clients/tessera-client-1.2.3.jar');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/java-archive');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tessera-client-1.2.3.jar"');
    expect(res.rawPayload.equals(JAR)).toBe(true);
    const readme = await t.app.inject('/clients/java-README.md');
    expect(readme.statusCode).toBe(200);
    expect(readme.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(readme.headers['content-disposition']).toBe('inline; filename="java-README.md"');
    expect(readme.body).toBe('# Tessera for Java');
  });

  it('answers a JSON 404 for anything the list does not name, or names outside its folder', async () => {
    for (const url of ['/clients/secret.txt', '/clients/index.json', '/clients/..%2Findex.json', '/clients/nope.tgz']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toMatch(/^There is no client package named /);
    }
  });

  it('lists nothing where no packages were built', async () => {
    const res = await empty.app.inject('/v2/clients');
    expect(res.statusCode).toBe(200);
    expect(res.json().clientPackages).toEqual([]);
    expect((await empty.app.inject('/clients/tessera-client-1.2.3.jar')).statusCode).toBe(404);
  });
});
