/**
 * `GET /v2/samples?mode=live|test`: the console's sample inputs (samples.ts). The sandbox's are public, as the sandbox
 * is (the Client Libraries page shows them to anyone); the graph's only to a signed-in user who may call the lookup
 * API. Live samples are read at most every few minutes per process; the sandbox's never change.
 */
import { KEY_MODES, type KeyMode } from '@tessera/common/keys';
import { type LookupSamples, SAMPLES_PATH } from '@tessera/common/samples';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import type { SandboxGraph } from '../sandbox-graph/register';
import { readSamples } from './samples';

const LIVE_FOR_MS = 5 * 60_000;
const mayLookUp = requireRank('user');

const query = z.object({ mode: z.enum(KEY_MODES).default('live') }).strict();

export function registerSamples(app: FastifyInstance, deps: { database: Database; sandbox: SandboxGraph }) {
  const kept = new Map<KeyMode, { samples: Omit<LookupSamples, 'mode'> | null; until: number }>();
  async function samplesOf(mode: KeyMode) {
    const hit = kept.get(mode);
    if (hit && hit.until > Date.now()) return hit.samples;
    const database = mode === 'test' ? await deps.sandbox.database() : deps.database;
    const samples = await readSamples(database);
    // The sandbox is fixed: kept for good once read. An empty graph is asked again soon (an import may be running).
    kept.set(mode, { samples, until: mode === 'test' ? Number.POSITIVE_INFINITY : Date.now() + LIVE_FOR_MS });
    return samples;
  }
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(SAMPLES_PATH, { schema: { querystring: query } }, async (request, reply) => {
      const { mode } = request.query;
      if (mode === 'live') await mayLookUp(request);
      const samples = await samplesOf(mode);
      reply.header('cache-control', 'private, no-store');
      return { samples: samples ? { mode, ...samples } : null };
    });
}
