/**
 * The client packages' list and downloads (issue 17): public, only files the list names, nothing else reachable
 * through the path, and an empty list (not an error) where no packages were built; READMEs name the server they
 * were fetched from, and every file has an ETag that a conditional GET is answered 304 on (issue 31).
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
const POM = '<project><artifactId>tessera-client</artifactId></project>';
writeFileSync(path.join(dir, 'tessera-client-1.2.3.pom'), POM);
const PY_README =
  'pip install https://tessera.example.com/clients/x.whl\nTESSERA_BASE_URL=https://tessera.example.com\n';
writeFileSync(path.join(dir, 'python-README.md'), PY_README);
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
        files: ['tessera-client-1.2.3.pom'],
      },
      { language: 'python', missing: 'python3 is not installed', readme: 'python-README.md' },
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
        files: ['tessera-client-1.2.3.pom'],
      },
      { language: 'python', missing: 'python3 is not installed', readme: 'python-README.md' },
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

  it("serves the jar's POM beside it", async () => {
    const res = await t.app.inject('/clients/tessera-client-1.2.3.pom');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toBe(POM);
  });

  it('writes the origin the README was fetched from into it, in place of the placeholder', async () => {
    const direct = await t.app.inject({ url: '/clients/python-README.md', headers: { host: 'api.acme.test:8080' } });
    expect(direct.statusCode).toBe(200);
    expect(direct.body).toBe(
      'pip install http://api.acme.test:8080/clients/x.whl\nTESSERA_BASE_URL=http://api.acme.test:8080\n',
    );
    // A Host that is not a plain host name is not written into a command: the placeholder stays.
    const odd = await t.app.inject({ url: '/clients/python-README.md', headers: { host: 'a;rm -rf ~' } });
    expect(odd.body).toBe(PY_README);
  });

  it('gives each file an ETag of what it serves and answers 304 to If-None-Match naming it', async () => {
    const first = await t.app.inject('/clients/tessera-client-1.2.3.jar');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const again = await t.app.inject({
        url: '/clients/tessera-client-1.2.3.jar',
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.headers.etag).toBe(etag);
      expect(again.rawPayload.length).toBe(0);
    }
    const changed = await t.app.inject({
      url: '/clients/tessera-client-1.2.3.jar',
      headers: { 'if-none-match': 'W/"not-it"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(JAR)).toBe(true);
    // A README's tag follows the address written into it.
    const here = await t.app.inject({ url: '/clients/python-README.md', headers: { host: 'a.test' } });
    const there = await t.app.inject({ url: '/clients/python-README.md', headers: { host: 'b.test' } });
    expect(here.headers.etag).not.toBe(there.headers.etag);
    const cached = await t.app.inject({
      url: '/clients/python-README.md',
      headers: { host: 'a.test', 'if-none-match': here.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
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
