/** The reply of GET /v2/clusters, checked on the way out (common/clusters.ts describes each field). */
import { z } from 'zod';

const table = z.object({ name: z.string(), bytes: z.number(), estimatedRows: z.number().nullable() }).strict();

const node = z
  .object({
    id: z.string(),
    engine: z.enum(['pglite', 'postgres']),
    reachable: z.boolean(),
    error: z.string().nullable(),
    checkedAt: z.string(),
    version: z.string().nullable(),
    role: z.enum(['primary', 'replica']).nullable(),
    replicationLagSeconds: z.number().nullable(),
    databaseBytes: z.number().nullable(),
    largestTables: z.array(table),
    connections: z.record(z.string(), z.number()),
    cacheHitRatio: z.number().nullable(),
    longestQuery: z.object({ pid: z.number(), seconds: z.number(), state: z.string(), query: z.string() }).nullable(),
    notes: z.array(z.string()),
  })
  .strict();

export const clustersReply = z.object({ clusters: z.record(z.string(), node) });
