/**
 * The server as `npm start` builds it, for the API-path bench: with BENCH_METERING=off its lookups record no usage,
 * so metering's cost can be measured against the same server without it; with BENCH_METERING=no-audit they record
 * usage rows but drop the lookup audit trail's rows (issue 22), so the trail's own cost can be measured. Never used
 * outside bench/.
 */
import { buildApp } from '@tessera/server/app';
import { loadConfig } from '@tessera/server/config';
import { createDatabaseMetering } from '@tessera/server/features/usage/metering';
import { openFanout, openStorage } from '@tessera/server/runtime';

const config = loadConfig();
const database = await openStorage(config, () => {});
const fanout = await openFanout(config);
const mode = process.env.BENCH_METERING ?? 'on';
const usageOnly = createDatabaseMetering(database);
const metering =
  mode === 'off'
    ? { record: async () => {} }
    : mode === 'no-audit'
      ? { record: ({ lookups: _trail, ...event }: Parameters<typeof usageOnly.record>[0]) => usageOnly.record(event) }
      : undefined;
const app = await buildApp({ config, database, fanout, ...(metering ? { metering } : {}) });
await app.listen({ port: config.port, host: config.host });
console.log(`api-server listening (metering ${mode})`);
const stop = async () => {
  await app.close();
  await fanout.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
