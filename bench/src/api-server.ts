/**
 * The server as `npm start` builds it, for the API-path bench: with BENCH_METERING=off its lookups record no usage,
 * so metering's cost can be measured against the same server without it. Never used outside bench/.
 */
import { buildApp } from '@tessera/server/app';
import { loadConfig } from '@tessera/server/config';
import { openFanout, openStorage } from '@tessera/server/runtime';

const config = loadConfig();
const database = await openStorage(config, () => {});
const fanout = await openFanout(config);
const off = process.env.BENCH_METERING === 'off';
const app = await buildApp({ config, database, fanout, ...(off ? { metering: { record: async () => {} } } : {}) });
await app.listen({ port: config.port, host: config.host });
console.log(`api-server listening (metering ${off ? 'off' : 'on'})`);
const stop = async () => {
  await app.close();
  await fanout.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
