import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from './error-handler';
import {
  AppError,
  Conflict,
  Forbidden,
  LegalNotice,
  NotFound,
  PaymentRequired,
  TooManyRequests,
  Unauthorized,
  Unavailable,
  Unprocessable,
} from './errors';

const app = Fastify({ logger: false });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandler(app);

const thrown: Record<string, () => Error> = {
  401: () => new Unauthorized(),
  402: () => new PaymentRequired('No active contract for this organization.'),
  403: () => new Forbidden(),
  404: () => new NotFound('No such key.'),
  409: () => new Conflict('Already exists.'),
  422: () => new Unprocessable('Template failed.'),
  429: () => new TooManyRequests('Slow down.', 2.2),
  451: () => new LegalNotice(),
  503: () => new Unavailable(),
  500: () => new Error('connection string postgres://admin:hunter2@db/internal failed'),
};

beforeAll(async () => {
  for (const [status, make] of Object.entries(thrown)) {
    app.get(`/throw/${status}`, async () => {
      throw make();
    });
  }
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/validate',
      { schema: { body: z.object({ email: z.string().email(), count: z.number().int() }) } },
      async () => ({ ok: true }),
    );
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/bad-reply',
      { schema: { response: { 200: z.object({ id: z.number() }) } } },
      async () => ({ id: 'secret-hash' }) as unknown as { id: number },
    );
  await app.ready();
});
afterAll(() => app.close());

describe('error handler', () => {
  it.each(Object.keys(thrown).filter((s) => s !== '500'))('maps a typed %s to its status and body', async (status) => {
    const res = await app.inject({ method: 'GET', url: `/throw/${status}` });
    expect(res.statusCode).toBe(Number(status));
    const body = res.json();
    expect(body).toEqual({ error: expect.any(String), code: expect.any(String), requestId: expect.any(String) });
    expect(body.error.length).toBeGreaterThan(0);
  });

  it('sends Retry-After with 429, rounded up to whole seconds', async () => {
    const res = await app.inject({ method: 'GET', url: '/throw/429' });
    expect(res.headers['retry-after']).toBe('3');
    expect(res.json().code).toBe('rate_limited');
  });

  it('answers 500 without internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/throw/500' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal');
    expect(res.body).not.toMatch(/hunter2|postgres|stack/);
  });

  it('answers 400 naming each failing field', async () => {
    const res = await app.inject({ method: 'POST', url: '/validate', payload: { email: 'nope', count: 1.5 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['body.count', 'body.email']);
    expect(body.error).toContain('body.email');
  });

  it('answers 400 for a body that is not JSON, and 415 for an unknown content type', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/validate',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('The request body is not valid JSON.');
    const type = await app.inject({
      method: 'POST',
      url: '/validate',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(type.statusCode).toBe(415);
  });

  it('never sends a reply that breaks its schema', async () => {
    const res = await app.inject({ method: 'GET', url: '/bad-reply' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret-hash');
  });
});

describe('the cause behind a 5xx of ours', () => {
  it('goes to the log, never to the client', async () => {
    const lines: string[] = [];
    const logged = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    registerErrorHandler(logged);
    logged.get('/away', async () => {
      const away = new AppError(503, 'unavailable', 'Try again shortly.', undefined, { 'retry-after': '5' });
      away.cause = new Error('the primary did not answer limiter.hit within 5000 ms');
      throw away;
    });
    const res = await logged.inject('/away');
    await logged.close();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).not.toContain('primary');
    const warn = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message: string } });
    expect(warn).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'Try again shortly.',
        err: expect.objectContaining({ message: 'the primary did not answer limiter.hit within 5000 ms' }),
      }),
    );
  });
});
