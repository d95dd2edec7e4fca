/**
 * Bench only: the server as `npm start` runs it — compiled by scripts/build-server.mjs (into bench/dist), a worker per
 * core unless WEB_CONCURRENCY says otherwise, the default log level — and with BENCH_METERING=off the same build
 * recording no usage, so metering's cost is measured against the server without it. Started by
 * start-operator-server.mjs, so that the bundle is not its process's entry and every worker runs that script too.
 */
import { serve } from '@tessera/server/main';

export function start(entry: string): Promise<void> {
  const off = process.env.BENCH_METERING === 'off';
  return serve({ entry, ...(off ? { metering: () => ({ record: async () => {} }) } : {}) });
}
