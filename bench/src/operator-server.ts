/**
 * Bench only: the server as `npm start` runs it — compiled by scripts/build-server.mjs (into bench/dist), a worker per
 * core unless WEB_CONCURRENCY says otherwise, the default log level — and with BENCH_METERING=off the same build
 * recording no usage, so metering's cost is measured against the server without it. Started by
 * start-operator-server.mjs, so that the bundle is not its process's entry and every worker runs that script too.
 */
import { createDatabaseMetering } from '@tessera/server/features/usage/metering';
import { serve } from '@tessera/server/main';

/** BENCH_WRITERS: usage writers per process, to try another number than the server's own. */
export function start(entry: string): Promise<void> {
  const off = process.env.BENCH_METERING === 'off';
  const writers = Number(process.env.BENCH_WRITERS) || undefined;
  if (off) return serve({ entry, metering: () => ({ record: async () => {} }) });
  return serve({ entry, ...(writers ? { metering: (database) => createDatabaseMetering(database, writers) } : {}) });
}
