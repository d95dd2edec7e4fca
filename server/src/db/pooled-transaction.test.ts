/**
 * A transaction whose `begin` fails gives its connection back (pooled-transaction.ts): drizzle's own kept it checked
 * out, and after an outage the pool had none left. A pool of one connection through a TCP proxy that stalls.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TcpProxy, tcpProxy } from '../test/tcp-proxy';
import { type Database, openDatabase } from './client';
import { databaseTimeouts } from './timeouts';

const databaseUrl = inject('databaseUrl');

describe.skipIf(!databaseUrl)('transactions on the PostgreSQL pool', () => {
  let proxy: TcpProxy;
  let database: Database;

  beforeAll(async () => {
    const target = new URL(databaseUrl!);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(databaseUrl!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    database = await openDatabase({ url: url.toString(), poolSize: 1, timeouts: databaseTimeouts(500, 500) });
  });

  afterAll(async () => {
    await proxy?.restore();
    await database?.close();
    await proxy?.close();
  });

  const one = () =>
    database.transaction(async (tx) => ((await tx.execute(sql`select 1 as n`)) as unknown as { rows: unknown[] }).rows);

  it('gives the connection back when its begin times out, so the next transaction runs', async () => {
    expect(await one()).toEqual([{ n: 1 }]);
    proxy.stall();
    try {
      await expect(one()).rejects.toMatchObject({
        message: /^Failed query: begin/,
        cause: { message: 'Query read timeout' },
      });
    } finally {
      await proxy.restore();
    }
    expect(await one()).toEqual([{ n: 1 }]);
  });

  it('keeps the connection after an error of the transaction itself', async () => {
    const [before] = await database.query<{ pid: number }>('select pg_backend_pid() as pid');
    await expect(database.transaction((tx) => tx.execute(sql`select 1/0`))).rejects.toThrow();
    const [after] = await database.query<{ pid: number }>('select pg_backend_pid() as pid');
    expect(after!.pid).toBe(before!.pid);
  });
});
