/**
 * The run of failures (issue 33, decision 0066): an endpoint whose last WEBHOOK_DISABLE_AFTER_FAILURES attempts all
 * failed is disabled, its organization's administrators (not its members) get one mail each at the real test SMTP
 * server, nothing more is sent to it, and PUT enabled=true starts it again: its pending delivery resumes. A success
 * in between ends the run.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEndpoints } from '../../db/schema';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, type TestApp } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import {
  DELIVERING,
  deliveriesOf,
  eventually,
  makeEndpoint,
  type OwnDatabase,
  organizationWithAdmin,
  ownDatabase,
  type Receiver,
  startReceiver,
} from './test-support';

const PUBLIC_URL = 'https://console.tessera.example';
let own: OwnDatabase;
let smtp: TestSmtpServer;
let receiver: Receiver;
let t: TestApp;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  own = await ownDatabase('webhook_disable');
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  t = await buildTestApp({
    database: own.database,
    env: {
      ...DELIVERING,
      // Two attempts per delivery, disabled at the third failure in a row.
      WEBHOOK_RETRY_SCHEDULE: '0,10ms',
      WEBHOOK_DISABLE_AFTER_FAILURES: '3',
      SMTP_URL: smtp.url,
      PUBLIC_URL,
    },
  });
});
afterAll(async () => {
  await t?.app.close();
  await receiver?.close();
  await smtp?.close();
  await own?.drop();
});

const mailTo = (address: string) => smtp.received.filter((m) => m.recipients.includes(address));
const endpointRow = async (id: number) =>
  (await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;

describe('disabling after a run of failures', () => {
  it('disables the endpoint at the third failure in a row, mails its administrators, and resumes when enabled', async () => {
    const { org, admin, member, cookie } = await organizationWithAdmin(t);
    const second = await makeUser(t.database, 'admin', org.id);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/broken?token=s3cret`, description: 'CRM' });
    let healthy = false;
    receiver.answer = (request) =>
      request.path.startsWith('/broken') && !healthy ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' };

    const first = (await api.post(`/v2/webhooks/${id}/test`, cookie, undefined)).json().webhookDelivery;
    await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).toBe('failed'));
    expect((await endpointRow(id)).consecutiveFailures).toBe(2);
    expect((await endpointRow(id)).enabled).toBe(true);

    const second_ = (await api.post(`/v2/webhooks/${id}/test`, cookie, undefined)).json().webhookDelivery;
    await eventually(async () => expect((await endpointRow(id)).enabled).toBe(false));
    const read = (await api.get(`/v2/webhooks/${id}`, cookie)).json().webhooks[id];
    expect(read).toMatchObject({ enabled: false, disabledReason: 'failures', consecutiveFailures: 3 });

    // One mail to each administrator, none to the member; it names the endpoint without its query.
    await eventually(() => {
      expect(mailTo(admin.email)).toHaveLength(1);
      expect(mailTo(second.email)).toHaveLength(1);
    });
    expect(mailTo(member.email)).toHaveLength(0);
    const mail = parseMail(mailTo(admin.email)[0]!.raw);
    expect(mail.headers.get('subject')).toBe('Tessera: a webhook endpoint was disabled');
    expect(mail.text).toContain(
      `The webhook endpoint ${receiver.base.replace('http://', '')}/broken (CRM) of ${org.name}`,
    );
    expect(mail.text).toContain('last 3 delivery attempts all failed');
    expect(mail.text).toContain(`${PUBLIC_URL}/webhooks`);
    expect(mail.text + mail.html).not.toContain('s3cret');
    expect((await auditedOf(t.database, 'webhook', id)).map((e) => e.action)).toContain('webhook.disable');

    // The second delivery's retry waits while the endpoint is disabled.
    await t.app.webhooks.runOnce();
    const waiting = (await deliveriesOf(t, cookie, id)).find((d) => d.id === second_.id)!;
    expect(waiting).toMatchObject({ status: 'pending', attemptCount: 1 });
    const sentBefore = receiver.received.length;
    const test = await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
    expect(test.statusCode).toBe(409);

    healthy = true;
    const enabled = await api.put(`/v2/webhooks/${id}`, cookie, { enabled: true });
    expect(enabled.json().webhooks[id]).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
    await eventually(async () => {
      const log = await deliveriesOf(t, cookie, id);
      expect(log.find((d) => d.id === second_.id)).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    });
    expect(receiver.received.length).toBe(sentBefore + 1);
    expect((await deliveriesOf(t, cookie, id)).find((d) => d.id === first.id)!.status).toBe('failed');
    expect(mailTo(admin.email)).toHaveLength(1);
  });

  it('counts failures in a row only: a success ends the run', async () => {
    const { cookie } = await organizationWithAdmin(t);
    const { id } = await makeEndpoint(t, cookie, { url: `${receiver.base}/sometimes` });
    // Fails, fails, then succeeds: never three in a row.
    receiver.answer = (request, n) => (request.path === '/sometimes' && n % 3 < 2 ? { status: 500 } : { status: 200 });
    for (let i = 0; i < 3; i++) {
      await api.post(`/v2/webhooks/${id}/test`, cookie, undefined);
      await eventually(async () => expect((await deliveriesOf(t, cookie, id))[0]!.status).not.toBe('pending'));
    }
    const row = await endpointRow(id);
    expect(row.enabled).toBe(true);
    expect(row.consecutiveFailures).toBeLessThan(3);
  });
});
