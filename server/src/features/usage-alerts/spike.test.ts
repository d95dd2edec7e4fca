/**
 * The spike rule (issue 16, decision 0029) on an injected clock: a day whose requests exceed the multiple of the
 * trailing 7-day average fires once that day, and again on a later day that spikes; organizations with too little
 * history, too small an average, or the rule turned off are left alone. Usage is written with the days it happened.
 */
import { randomUUID } from 'node:crypto';
import { formatDay } from '@tessera/common/dates';
import { emptyMetrics } from '@tessera/common/usage';
import { USAGE_ALERT_DEFAULTS } from '@tessera/common/usage-alerts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { createMailer, type Mailer } from '../../mail';
import { memoryFanout } from '../../socket/fanout';
import { createHub } from '../../socket/hub';
import { makeOrganization, makeUser, testDatabase } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { writeUsage } from '../usage/metering';
import { saveSettings } from './repo';
import { createUsageAlerts } from './service';

const DAY = 86_400_000;
const now = new Date();
/** The start (UTC) of today; the clock starts at its noon. */
const TODAY = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let database: Database;
let smtp: TestSmtpServer;
let mailer: Mailer;
let clock = TODAY + DAY / 2;
const logger = pino({ level: 'silent' });
let alerts: ReturnType<typeof createUsageAlerts>;

beforeAll(async () => {
  database = await testDatabase();
  smtp = await startSmtpServer();
  mailer = createMailer({ smtpUrl: smtp.url, dataDir: '/nonexistent', publicUrl: 'http://localhost:3000', logger });
  alerts = createUsageAlerts({
    database,
    hub: createHub(memoryFanout()),
    mailer,
    publicUrl: new URL('http://localhost:3000'),
    logger,
    now: () => clock,
  });
});
afterAll(async () => {
  await alerts.close();
  await mailer.close();
  await smtp.close();
});

async function organization(
  perDay: number,
  days: number,
  settings: Partial<typeof USAGE_ALERT_DEFAULTS> = {},
): Promise<{ id: number; adminEmail: string; calls(n: number, day?: number): Promise<void> }> {
  const org = await makeOrganization(database);
  const admin = await makeUser(database, 'admin', org.id);
  if (Object.keys(settings).length > 0)
    await saveSettings(database.db, org.id, { ...USAGE_ALERT_DEFAULTS, ...settings });
  async function calls(n: number, day = TODAY) {
    const metrics = { ...emptyMetrics(), inputs: 1 };
    const events = Array.from({ length: n }, () => ({
      requestId: randomUUID(),
      userId: admin.id,
      organizationId: org.id,
      keyId: null,
      method: 'GET',
      path: '/byPhone',
      status: 200,
      metrics,
      costMicros: 0,
    }));
    await writeUsage(database, events, new Date(day + 3600_000));
  }
  for (let d = days; d >= 1; d--) await calls(perDay, TODAY - d * DAY);
  return { id: org.id, adminEmail: admin.email, calls };
}

describe('the spike rule', () => {
  it('fires once on a day whose requests exceed 3 times the trailing 7-day average, and again on a later day', async () => {
    clock = TODAY + DAY / 2;
    const org = await organization(10, 8); // 8 days of 10 a day: an average of 10
    await org.calls(30);
    expect(await alerts.evaluate(org.id)).toEqual([]); // 30 is not more than 3 × 10
    await org.calls(1);
    const [fired, ...more] = await alerts.evaluate(org.id);
    expect(more).toEqual([]);
    expect(fired!.firing).toMatchObject({
      kind: 'spike',
      share: 0,
      period: dayOf(TODAY),
      requests: 31,
      average: 10,
      multiple: 3,
    });
    await org.calls(10);
    expect(await alerts.evaluate(org.id)).toEqual([]); // once a day

    clock = TODAY + DAY + DAY / 2; // the next day: the window now holds 6 days of 10 and yesterday's 41
    await org.calls(43, TODAY + DAY);
    expect(await alerts.evaluate(org.id)).toEqual([]); // 43 is not more than 3 × 101 / 7 = 43.29
    await org.calls(1, TODAY + DAY);
    const [next] = await alerts.evaluate(org.id);
    expect(next!.firing).toMatchObject({ kind: 'spike', period: dayOf(TODAY + DAY), requests: 44, average: 14.43 });

    await mailer.drain();
    const mails = smtp.received.filter((m) => m.recipients.includes(org.adminEmail)).map((m) => parseMail(m.raw));
    expect(mails.map((m) => m.headers.get('subject'))).toEqual([
      'Tessera usage alert: unusual number of requests today',
      'Tessera usage alert: unusual number of requests today',
    ]);
    expect(mails[0]!.text).toContain(
      `has made 31 requests on ${formatDay(TODAY)} (UTC), more than 3 times its daily average of 10`,
    );
  });

  it('follows the chosen multiple', async () => {
    clock = TODAY + DAY / 2;
    const org = await organization(10, 8, { spikeMultiple: 1.5 });
    await org.calls(15);
    expect(await alerts.evaluate(org.id)).toEqual([]);
    await org.calls(1);
    expect((await alerts.evaluate(org.id)).map((f) => f.firing.multiple)).toEqual([1.5]);
  });

  it('leaves alone an organization with under 7 days of history, a small average, or the rule off', async () => {
    clock = TODAY + DAY / 2;
    const young = await organization(100, 6); // its first day is inside the window
    await young.calls(1000);
    const small = await organization(5, 8); // an average of 5, under the minimum of 10
    await small.calls(100);
    const off = await organization(10, 8, { spikeOn: false });
    await off.calls(100);
    for (const org of [young, small, off]) expect(await alerts.evaluate(org.id)).toEqual([]);
  });
});
