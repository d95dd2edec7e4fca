/**
 * Traces (issue 30, item 3), with OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set: a server span per request,
 * the child of the caller's `traceparent` when it sends one (W3C Trace Context), with a span per database statement
 * and per Redis counter call beneath it, exported over OTLP/HTTP in batches. Unset, nothing is loaded and every hook
 * returns at its first line. Spans carry no value of a request: the route pattern, the method, the status, the
 * request id; a statement is named by its verb only (the query console's SQL is a customer's text).
 */
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const TRACER = 'tessera';
let enabled = false;
let shutdown: () => Promise<void> = async () => {};

/** Whether spans are being recorded (OTEL_EXPORTER_OTLP_ENDPOINT was set when the process started). */
export const tracing = () => enabled;

/**
 * Starts the exporter when `endpoint` is set (the exporter reads the OTEL_EXPORTER_OTLP_* variables itself). Once per
 * process; the returned function exports what is left and stops.
 */
export async function startTracing(options: {
  endpoint: string | null;
  version: string;
}): Promise<() => Promise<void>> {
  if (!options.endpoint || enabled) return shutdown;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME ?? 'tessera',
      'service.version': options.version,
      'process.pid': process.pid,
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register(); // the global tracer, W3C Trace Context propagation, and async context across awaits
  enabled = true;
  shutdown = () => provider.shutdown();
  return shutdown;
}

const spans = new WeakMap<FastifyRequest, Span>();

/** A server span per request, the parent of what the request does. */
export function registerRequestSpans(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!enabled) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url;
    const span = trace.getTracer(TRACER).startSpan(
      `${request.method} ${route ?? 'unmatched'}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route ?? 'unmatched',
          'tessera.request_id': String(request.id),
        },
      },
      parent,
    );
    spans.set(request, span);
    // The rest of the request runs inside the span's context, so its statements and Redis calls are its children.
    context.with(trace.setSpan(parent, span), done);
  });
  // A body is read on later socket events, outside that context: the handler's turn enters it again.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (!span) return done();
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    // Set by http/auth.ts or the lookup's authenticator; read loosely, so that this module needs neither.
    const organizationId = (request as { principal?: { organizationId: number | null } | null }).principal
      ?.organizationId;
    if (organizationId) span.setAttribute('tessera.organization_id', organizationId);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** Runs `work` in a child span of the current one (a statement, a Redis call); just runs it when not tracing. */
export async function inSpan<T>(name: string, attributes: Record<string, string>, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  const parent: Context = context.active();
  if (!trace.getSpan(parent)) return work(); // nothing of a request's: not worth a trace of its own
  const span = trace.getTracer(TRACER).startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
    throw error;
  } finally {
    span.end();
  }
}

/** A statement's verb (select, insert, with, ...), the only part of its text a span carries. */
export function statementVerb(text: string): string {
  const body = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
  return /^\s*([a-z]+)/i.exec(body)?.[1]?.toLowerCase() ?? 'statement';
}
