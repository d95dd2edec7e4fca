import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endLogs, redactUrl, serializeError, serverLogger } from './logger';
import { buildTestApp, type TestApp } from './test/harness';
import { scratchDir } from './test/scratch-dir';

describe('redactUrl', () => {
  it('keeps path and parameter names, drops values', () => {
    expect(redactUrl('/v2/identities/byEmail?email=jane%40x.example&format=csv')).toBe(
      '/v2/identities/byEmail?email=[redacted]&format=[redacted]',
    );
    expect(redactUrl('/healthz')).toBe('/healthz');
    expect(redactUrl('/x?')).toBe('/x?');
  });
});

describe('request logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.app.close());

  it('carry no credentials, cookies or query values', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/v2/identities/byEmail?email=jane.doe%40private.example&phone=5551234567',
      headers: {
        authorization: 'Bearer KEYID123456789AAsecretsecretsecretsecretsecret12',
        cookie: 'tessera_session=abc123secret',
      },
    });
    const text = t.logs.join('\n');
    expect(text).toContain('/v2/identities/byEmail?email=[redacted]&phone=[redacted]');
    expect(text).not.toMatch(/jane|private\.example|5551234567|secretsecret|abc123secret/);
  });
});

describe('the server logger', () => {
  it('writes off the caller, and once ended has written every line, in order', async () => {
    const file = path.join(scratchDir('log'), 'server.log');
    const destination = pino.destination({ dest: file, sync: false, maxWrite: 4096 });
    const request = serverLogger('info', destination).child({ reqId: 'r1' }); // as Fastify's request loggers are
    for (let n = 0; n < 5000; n++) request.info({ n }, 'request completed');
    await endLogs(request);
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; reqId: string });
    expect(lines.map((l) => l.n)).toEqual([...Array(5000).keys()]);
    expect(lines.every((l) => l.reqId === 'r1')).toBe(true);
  });

  it('leaves a synchronous destination open', async () => {
    const out: string[] = [];
    const logger = serverLogger('info', { write: (line: string) => void out.push(line) });
    logger.info('one');
    await endLogs(logger);
    logger.info('two');
    expect(out).toHaveLength(2);
  });
});

describe('error serializer', () => {
  it('cuts query parameters and addresses out of driver errors and their causes', () => {
    const cause = new Error('duplicate key value violates unique constraint "users_email_key" for ada@acme.test');
    const err = new Error('Failed query: select * from users where email = $1\nparams: ada@acme.test,5f2b…', { cause });
    const logged = serializeError(err);
    expect(JSON.stringify(logged)).not.toContain('ada@acme.test');
    expect(logged.message).toBe('Failed query: select * from users where email = $1\nparams: [redacted]');
    expect((logged.cause as { message: string }).message).toContain('[address]');
    expect(String(logged.stack)).toMatch(/^Failed query[\s\S]*\n\s+at /);
  });
});
