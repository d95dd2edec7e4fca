/**
 * Traces (issue 30, item 3): the server, as a process, exports its spans over OTLP/HTTP to a receiver of the test's
 * own on loopback; the caller's traceparent is the parent of the request's span, whose statements are its children.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { signInOverHttp } from '../test/http-session';
import { startServerProcess } from '../test/process';

const ROOT = { email: 'root@trace.test', password: 'Trace-passw0rd!' };

import { statementVerb } from './tracing';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver: every span of every batch posted to /v1/traces. */
async function receiver() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const batch = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const r of batch.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => server.close(),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe('traces', () => {
  it('exports the request’s span as the child of the caller’s traceparent, its statements beneath it', async () => {
    const otlp = await receiver();
    const { child, base, drop } = await startServerProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      ROOT_EMAIL: ROOT.email,
      ROOT_PASSWORD: ROOT.password,
    });
    try {
      const traceId = randomBytes(16).toString('hex');
      const callerSpan = randomBytes(8).toString('hex');
      const res = await fetch(`${base}/readyz?probe=secret-value`, {
        headers: { traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'trace-test-1' },
      });
      expect(res.status).toBe(200);
      // A request with a body: its handler runs on a later socket event, and its statements are still its span's.
      const cookie = await signInOverHttp(base, ROOT.email, ROOT.password);
      const posted = await fetch(`${base}/v2/identities/byEmail`, {
        method: 'POST',
        headers: {
          cookie,
          'content-type': 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          traceparent: `00-${traceId}-${callerSpan}-01`,
          'x-request-id': 'trace-test-2',
        },
        body: JSON.stringify({ inputs: ['nobody@trace.example'] }),
      });
      expect(posted.status).toBe(200);
      child.proc.kill('SIGTERM'); // the drain exports what is left
      expect(await child.exited).toBe(0);

      expect(otlp.paths[0]).toMatch(/^POST \/v1\/traces application\/json/);
      const mine = otlp.spans.filter((s) => s.traceId === traceId);
      const server = mine.find((s) => s.parentSpanId === callerSpan);
      expect(server).toMatchObject({ name: 'GET /readyz', kind: 2 }); // SERVER
      expect(attribute(server!, 'http.route')).toBe('/readyz');
      expect(attribute(server!, 'tessera.request_id')).toBe('trace-test-1');
      expect(Number(attribute(server!, 'http.response.status_code'))).toBe(200);
      const statements = mine.filter((s) => s.parentSpanId === server!.spanId);
      expect(statements.map((s) => [s.name, s.kind, attribute(s, 'db.operation.name')])).toContainEqual([
        'db select',
        3, // CLIENT
        'select',
      ]);
      const post = mine.find((s) => s.parentSpanId === callerSpan && s.name === 'POST /v2/identities/byEmail');
      expect(post).toBeDefined();
      expect(mine.filter((s) => s.parentSpanId === post!.spanId).length).toBeGreaterThan(0);
      expect(JSON.stringify(otlp.spans)).not.toContain('secret-value');
      expect(JSON.stringify(otlp.spans)).not.toContain('trace.example');
    } finally {
      child.proc.kill('SIGKILL');
      otlp.close();
      await drop();
    }
  }, 120_000);

  it('names a statement by its verb only', () => {
    expect(statementVerb('/* tessera: usage write */ with sent as (select 1)')).toBe('with');
    expect(statementVerb("-- note\n  SELECT email FROM emails WHERE address = 'x@y'")).toBe('select');
    expect(statementVerb('   ')).toBe('statement');
  });
});
