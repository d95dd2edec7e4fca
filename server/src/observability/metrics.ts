/**
 * The process's Prometheus metrics (issue 30, item 2), in prom-client's global registry so that a cluster's primary
 * can add up its workers' (features/metrics). Each part of the server counts its own here; nothing in a label is a
 * secret, a query value or personal data: routes are patterns, endpoints and statuses are from fixed sets.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';

export const registry = register;

let defaults = false;
/** Node's own: CPU, memory, heap, event-loop lag, handles, GC. Once per process. */
export function collectProcessMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Created once per process, whatever number of apps (tests build many): prom-client refuses a name twice. */
function once<T>(name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export const httpRequests = once(
  'tessera_http_requests_total',
  () =>
    new Counter({
      name: 'tessera_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'] as const,
    }),
);

export const httpDuration = once(
  'tessera_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'Time from a request read to its reply sent, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: SECONDS,
    }),
);

export const lookupCalls = once(
  'tessera_lookup_calls_total',
  () =>
    new Counter({
      name: 'tessera_lookup_calls_total',
      help: 'Lookup calls metered, by endpoint and status.',
      labelNames: ['endpoint', 'status'] as const,
    }),
);

export const lookupInputs = once(
  'tessera_lookup_inputs_total',
  () =>
    new Counter({
      name: 'tessera_lookup_inputs_total',
      help: 'Lookup inputs served, by endpoint and whether they found at least one identity.',
      labelNames: ['endpoint', 'matched'] as const,
    }),
);

export const usageWritten = once(
  'tessera_usage_calls_written_total',
  () =>
    new Counter({
      name: 'tessera_usage_calls_written_total',
      help: 'Calls whose usage rows were written (group commit: several per statement).',
    }),
);

export const usageWrites = once(
  'tessera_usage_write_seconds',
  () =>
    new Histogram({
      name: 'tessera_usage_write_seconds',
      help: 'Usage write statements, by outcome: how long each took.',
      labelNames: ['outcome'] as const,
      buckets: SECONDS,
    }),
);

export const databaseFaults = once(
  'tessera_database_faults_total',
  () =>
    new Counter({
      name: 'tessera_database_faults_total',
      help: 'Requests answered 503 because the database was away or too slow, by SQLSTATE or network error code (57014: a statement timeout).',
      labelNames: ['code'] as const,
    }),
);

export const sandboxKills = once(
  'tessera_template_sandbox_kills_total',
  () =>
    new Counter({
      name: 'tessera_template_sandbox_kills_total',
      help: 'Template sandbox processes ended while evaluating: killed for a template’s fault (time, output) or dead of it (memory).',
    }),
);

/** Each live sandbox's queue length, read when scraped. */
const sandboxQueues = new Set<() => number>();
export function watchSandboxQueue(length: () => number): () => void {
  sandboxQueues.add(length);
  return () => sandboxQueues.delete(length);
}
once(
  'tessera_template_sandbox_queued',
  () =>
    new Gauge({
      name: 'tessera_template_sandbox_queued',
      help: 'Template evaluations waiting for a sandbox process.',
      collect() {
        let n = 0;
        for (const length of sandboxQueues) n += length();
        this.set(n);
      },
    }),
);

export const socketConnections = once(
  'tessera_socket_connections',
  () =>
    new Gauge({
      name: 'tessera_socket_connections',
      help: 'Console WebSocket connections open.',
    }),
);
