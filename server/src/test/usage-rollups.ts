/** For tests reading the rollups themselves: runs the aggregator until every usage row written so far is in them. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/client';
import { aggregateUsage } from '../features/usage-rollups/aggregator';

export async function rollUpAll(database: Database): Promise<void> {
  // A transaction id taken now: once the watermark passes it, every row written before this call is counted.
  const [now] = await database.query<{ txid: string }>('select pg_current_xact_id()::text as txid');
  for (let attempt = 0; attempt < 400; attempt++) {
    await aggregateUsage(database);
    const [mark] = await database.query<{ txid: string }>('select txid::text as txid from usage_rollup_watermark');
    if (BigInt(mark!.txid) > BigInt(now!.txid)) return;
    // Another run holds the watermark, or a transaction older than ours is still open: try again shortly.
    await sleep(25);
  }
  throw new Error('The usage rollups did not catch up with the usage rows.');
}
