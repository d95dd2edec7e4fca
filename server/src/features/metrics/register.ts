/**
 * `GET /metrics` in the Prometheus text format (issue 30, item 2), behind the bearer token METRICS_TOKEN; without
 * one it answers 404 (off). In a cluster the answer is the whole machine's: the worker asks the primary, which adds
 * up every worker's (cluster-shared.ts). Besides the counters each part keeps (observability/metrics.ts), this
 * measures every request, and reads at each scrape the database pool, the usage aggregator's lag and Redis's state.
 */

import cluster from 'node:cluster';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import { answerMetricsRequests, clusterMetricsText } from '../../cluster-metrics';
import type { Database } from '../../db/client';
import { NotFound, Unauthorized } from '../../http/errors';
import { collectProcessMetrics, httpDuration, httpRequests, registry } from '../../observability/metrics';
import { within } from '../../time-limit';

export const METRICS_OFF = 'Metrics are off: set METRICS_TOKEN to turn them on.';
export const METRICS_TOKEN_WRONG = 'Send the metrics token as a Bearer token.';

/** What the scrape-time gauges read: the newest app's (one per process outside tests). */
const sources: { database: Database | null; redis: 'absent' | { downUntil: number } } = {
  database: null,
  redis: 'absent',
};

/**
 * `aggregator`: how a cluster's primary adds up the workers' values (prom-client's default is the sum): the same
 * reading taken by every worker (the aggregator's lag) is their maximum, Redis is up only if it is for all.
 */
function gauge(
  name: string,
  help: string,
  labelNames: string[],
  collect: (g: Gauge) => Promise<void> | void,
  aggregator: 'sum' | 'max' | 'min' = 'sum',
) {
  if (registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    aggregator,
    async collect() {
      await collect(this);
    },
  });
}

gauge('tessera_db_pool_connections', 'PostgreSQL pool connections of this process, by state.', ['state'], (g) => {
  const raw = sources.database?.raw;
  if (raw?.kind !== 'postgres') return;
  g.set({ state: 'idle' }, raw.pool.idleCount);
  g.set({ state: 'in_use' }, raw.pool.totalCount - raw.pool.idleCount);
  g.set({ state: 'waiting' }, raw.pool.waitingCount);
});

gauge(
  'tessera_usage_aggregator_lag_seconds',
  'Age of the oldest usage row not yet rolled up (0 when none): how far the rollups are behind the log.',
  [],
  async (g) => {
    const database = sources.database;
    if (!database) return;
    try {
      // Bounded: a database that stalls must not take the whole scrape (and its fault counts) down with it.
      const [row] = await within(
        database.query<{ lag: number }>(
          `select coalesce(extract(epoch from now() - min(at)), 0)::float8 as lag from usage_tail()`,
        ),
        LAG_READ_MS,
      );
      g.set(row?.lag ?? 0);
    } catch {
      // The database away: the gauge keeps its last value (tessera_database_faults_total tells the rest).
    }
  },
  'max',
);

// Labelled so that it is absent without REDIS_URL (an unlabelled gauge would read 0, as if Redis were down).
gauge(
  'tessera_redis_up',
  'Whether Redis answered this process’s counters lately (1) or they count in the process (0); absent without REDIS_URL.',
  ['counters'],
  (g) => {
    const redis = sources.redis;
    if (redis === 'absent') return;
    g.set({ counters: 'redis' }, Date.now() < redis.downUntil ? 0 : 1);
  },
  'min',
);

/** How long a scrape waits for the aggregator's lag; past it the gauge keeps its last value. */
const LAG_READ_MS = 500;

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

function tokenMatches(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return sent.length === wanted.length && timingSafeEqual(sent, wanted);
}

export function registerMetrics(
  app: FastifyInstance,
  deps: { database: Database; token: string | null; redisConfigured: boolean },
): { redisTripped(pauseMs: number): void } {
  collectProcessMetrics();
  answerMetricsRequests();
  sources.database = deps.database;
  sources.redis = deps.redisConfigured ? { downUntil: 0 } : 'absent';

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_class: statusClass(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', async (request, reply) => {
    if (!deps.token) throw new NotFound(METRICS_OFF);
    if (!tokenMatches(request.headers.authorization, deps.token)) throw new Unauthorized(METRICS_TOKEN_WRONG);
    const text = cluster.isWorker
      ? await clusterMetricsText().catch((error: unknown) => {
          request.log.warn({ err: (error as Error).cause ?? error }, 'the cluster’s metrics did not come');
          throw error;
        })
      : await registry.metrics();
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return text;
  });

  return {
    redisTripped(pauseMs) {
      if (sources.redis !== 'absent') sources.redis = { downUntil: Date.now() + pauseMs };
    },
  };
}
