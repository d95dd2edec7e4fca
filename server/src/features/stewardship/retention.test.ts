/**
 * Retention of the lookup audit trail, page views, contact messages and expired opt-out requests (issue 22 item 4):
 * only rows past their age go, a batch per statement until none is left; a setting of 0 keeps all.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { testDatabase } from '../../test/harness';
import { createDataRetention } from './retention';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

async function ids(text: string, params: unknown[]): Promise<string[]> {
  return (await database.query<{ id: string }>(text, params)).map((r) => r.id);
}

/** Rows on both sides of each age; the ids of those that must go and those that must stay. */
async function history() {
  const tag = randomUUID();
  const audit = (days: number) =>
    ids(
      `insert into lookup_audit (at, request_id, user_id, method, path, input, value_hmacs, identity_ids)
       values ($1, $2, 1, 'GET', '/byEmail', 0, '{}', '{}') returning id::text`,
      [ago(days), tag],
    );
  const view = (days: number) =>
    ids(`insert into page_views (at, journey_id, hit_index, url) values ($1, $2, 0, '/') returning id::text`, [
      ago(days),
      randomUUID(),
    ]);
  const message = (days: number) =>
    ids(
      `insert into contact_messages (name, email, message, created_at) values ('A', 'a@b.example', 'Hi', $1)
       returning id::text`,
      [ago(days)],
    );
  const request = (expiredDaysAgo: number, confirmed: boolean) =>
    ids(
      `insert into opt_out_requests (token_hash, expires_at, email, confirmed_at) values ($1, $2, 'a@b.example', $3)
       returning id::text`,
      [randomUUID(), ago(expiredDaysAgo), confirmed ? ago(expiredDaysAgo + 1) : null],
    );
  return {
    gone: {
      lookup_audit: [...(await audit(750)), ...(await audit(740)), ...(await audit(735))],
      page_views: [...(await view(92)), ...(await view(91))],
      contact_messages: [...(await message(740))],
      opt_out_requests: [...(await request(1, false))],
    },
    kept: {
      lookup_audit: [...(await audit(700))],
      page_views: [...(await view(89))],
      contact_messages: [...(await message(700))],
      opt_out_requests: [...(await request(1, true)), ...(await request(-2, false))],
    },
  };
}

async function present(table: string, list: string[]): Promise<string[]> {
  return ids(`select id::text from ${table} where id = any($1::bigint[]) order by id`, [list]);
}

describe('data retention', () => {
  it('deletes only what is past its age, in batches', async () => {
    const { gone, kept } = await history();
    const retention = createDataRetention({
      database,
      settings: { lookupAuditMonths: 24, pageViewDays: 90, contactMessageMonths: 24 },
      batchRows: 2,
    });
    const run = await retention.runOnce();
    for (const [table, list] of Object.entries(gone)) expect(await present(table, list)).toEqual([]);
    for (const [table, list] of Object.entries(kept))
      expect(await present(table, list)).toEqual([...list].sort((a, b) => Number(a) - Number(b)));
    expect(run.lookupAudit).toBeGreaterThanOrEqual(3);
    expect(run.pageViews).toBeGreaterThanOrEqual(2);
    expect(run.optOutRequests).toBeGreaterThanOrEqual(1);
  });

  it('a setting of 0 keeps that data', async () => {
    const { gone } = await history();
    const retention = createDataRetention({
      database,
      settings: { lookupAuditMonths: 0, pageViewDays: 0, contactMessageMonths: 0 },
    });
    await retention.runOnce();
    for (const table of ['lookup_audit', 'page_views', 'contact_messages'] as const) {
      expect(await present(table, gone[table])).toHaveLength(gone[table].length);
    }
    // Expired, never-confirmed requests always go: they hold an address nobody confirmed.
    expect(await present('opt_out_requests', gone.opt_out_requests)).toEqual([]);
  });

  it('reads its settings, 24 months, 90 days and 24 months by default', () => {
    expect(loadConfig({}).dataRetention).toEqual({ lookupAuditMonths: 24, pageViewDays: 90, contactMessageMonths: 24 });
    expect(
      loadConfig({
        LOOKUP_AUDIT_RETENTION_MONTHS: '6',
        PAGE_VIEW_RETENTION_DAYS: '0',
        CONTACT_MESSAGE_RETENTION_MONTHS: '12',
      }).dataRetention,
    ).toEqual({ lookupAuditMonths: 6, pageViewDays: 0, contactMessageMonths: 12 });
    expect(() => loadConfig({ PAGE_VIEW_RETENTION_DAYS: '-1' })).toThrow();
  });
});
