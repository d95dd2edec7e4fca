/**
 * Probes for a supervisor or a balancer (issue 30, item 5). `/livez`: the process is up and its event loop turns
 * (200 whenever it answers). `/readyz`: it should be sent traffic: it is not draining and the database answers
 * (or its pool is merely full); 503 otherwise. Redis, when configured, is reported but does not decide. Both JSON, never cached, answered while the server
 * drains (the drain's 503 is for every other request). `/healthz` stays as it was (the database only). On SIGTERM a
 * server says it is draining at once and goes on serving for DRAIN_DELAY_SECONDS (main.ts), so a balancer that
 * checks /readyz stops sending before the listener closes.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { PROBE_PATHS } from '../../http/probes';
import { within } from '../../time-limit';
import { closeCounterRedis, counterRedis } from '../throttle/outage';

/** How long a probe waits for each dependency before calling it down. */
export const PROBE_TIMEOUT_MS = 1_000;

const check = z.enum(['ok', 'busy', 'down', 'absent']);
const readiness = z.object({
  ready: z.boolean(),
  draining: z.boolean(),
  checks: z.object({ database: check, redis: check }),
});

const poolWaiting = (database: Database) => database.raw.kind === 'postgres' && database.raw.pool.waitingCount > 0;

declare module 'fastify' {
  interface FastifyInstance {
    /** Says the process is going away: /readyz answers 503 from now on, while requests are still served. */
    beginDrain(): void;
  }
}

export function registerHealth(app: FastifyInstance, deps: { database: Database; redisUrl: string | null }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  let draining = false;
  app.decorate('beginDrain', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  // A connection of its own, refused at once while Redis is away (no offline queue); ioredis keeps reconnecting.
  const redis = deps.redisUrl ? counterRedis(deps.redisUrl) : null;
  if (redis) {
    redis.connect().catch(() => {});
    app.addHook('onClose', () => closeCounterRedis(redis));
  }
  let told = '';

  r.get(
    PROBE_PATHS.live,
    { schema: { response: { 200: z.object({ live: z.literal(true) }) } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { live: true as const };
    },
  );

  r.get(PROBE_PATHS.ready, { schema: { response: { 200: readiness, 503: readiness } } }, async (request, reply) => {
    const [database, cache] = await Promise.all([
      within(deps.database.ping(), PROBE_TIMEOUT_MS).then(
        () => 'ok' as const,
        // A pool with callers waiting is alive and full (it serves them in turn), not away: taking the node out for
        // it would move its load onto the others, which then fill up too.
        () => (poolWaiting(deps.database) ? ('busy' as const) : ('down' as const)),
      ),
      redis
        ? within(redis.ping(), PROBE_TIMEOUT_MS).then(
            () => 'ok' as const,
            () => 'down' as const,
          )
        : Promise.resolve('absent' as const),
    ]);
    // Redis is told but does not decide: without it every process counts alone and serves on (decision 0050), and
    // failing every node's probe at once would turn a Redis restart into the balancer refusing everything.
    const ready = !draining && database !== 'down';
    const state = JSON.stringify({ ready, draining, database, redis: cache });
    if (state !== told && (told !== '' || !ready))
      request.log.warn({ ready, draining, database, redis: cache }, 'readiness changed');
    told = state;
    reply.header('cache-control', 'no-store');
    return reply.code(ready ? 200 : 503).send({ ready, draining, checks: { database, redis: cache } });
  });
}
