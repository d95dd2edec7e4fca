/**
 * Threshold alerts (issue 16, decision 0029) through real lookups: each share of the monthly limit fires once in a
 * month, however often it is crossed again and however many processes serve the calls at once; the notice reaches
 * the organization's administrators' consoles and never a plain member's, and every administrator gets one e-mail
 * per alert from the local SMTP server.
 */
import { randomUUID } from 'node:crypto';
import type { Alert } from '@tessera/common/alerts';
import { formatMonth } from '@tessera/common/dates';
import type { ServerMessage } from '@tessera/common/socket';
import { emptyMetrics } from '@tessera/common/usage';
import type { UsageAlertFiring } from '@tessera/common/usage-alerts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { isPush, isReply, openSocket, type TestSocket } from '../../test/socket-client';
import { writeUsage } from '../usage/metering';

const PUBLIC_URL = 'https://console.tessera.example';
let smtp: TestSmtpServer;
let t: TestApp;
let base: string;
const api = consoleClient(() => t.app);
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

const notices = (s: TestSocket) =>
  s.messages.filter(isPush('notice')).map((m) => (m[1] as { notice: Alert }).notice.title);

/** Returns once everything the server sent the socket before now has arrived (its reply comes after it). */
async function barrier(s: TestSocket, channel: string) {
  s.send(['subscribe', channel]);
  await s.next(isReply('subscribed', channel));
}

async function listen(email: string, channel: string) {
  const cookie = await signIn(t.app, email);
  const s = await openSocket(base, { cookie });
  await barrier(s, channel);
  return { s, cookie };
}

/** An organization whose calls cost $0.001 each against a $0.01 monthly limit, two administrators and a member. */
async function customer() {
  const org = await makeOrganization(t.database);
  await makeContract(t.database, org.id, { monthlyLimit: 0.01, pricePerRequest: 0.001, pricePerIdentity: 0 });
  const admins = [await makeUser(t.database, 'admin', org.id), await makeUser(t.database, 'admin', org.id)];
  const member = await makeUser(t.database, 'user', org.id);
  const channel = `organization:${org.id}`;
  const boss = await listen(admins[0]!.email, channel);
  const peer = await listen(member.email, channel);
  const made = await api.post('/v2/keys', peer.cookie, { name: 'alerts' });
  const key = Object.values(made.json().keys)[0] as { id: string; secret: string };
  const call = (app: FastifyInstance = t.app) =>
    app.inject({
      method: 'GET',
      url: `/v2/identities/byEmail?email=${randomUUID()}@nobody.example`,
      headers: { authorization: `Bearer ${key.id}${key.secret}` },
    });
  async function calls(n: number) {
    for (let i = 0; i < n; i++) expect((await call()).statusCode).toBe(200);
    await t.app.usageAlerts.settle();
  }
  const firings = async () =>
    (await api.get(`/v2/organizations/${org.id}/usage-alerts`, boss.cookie)).json().usageAlerts
      .firings as UsageAlertFiring[];
  return { org, admins, member, channel, boss, peer, call, calls, firings };
}

function mailTo(address: string) {
  return smtp.received.filter((m) => m.recipients.includes(address)).map((m) => parseMail(m.raw));
}

describe('threshold alerts', () => {
  it('fire once at each share, to the administrators only, on the console and by mail', async () => {
    const c = await customer();
    const put = await api.put(`/v2/organizations/${c.org.id}/usage-alerts`, c.boss.cookie, { thresholds: [50, 100] });
    expect(put.statusCode).toBe(200);

    await c.calls(4); // $0.004: 40 %
    expect(await c.firings()).toEqual([]);
    await c.calls(1); // 50 %
    const half = await c.boss.s.next(isPush('notice'));
    expect((half[1] as { notice: Alert }).notice).toEqual({
      type: 'warning',
      title: 'Usage alert: 50% of the monthly limit',
      text: `${c.org.name} has spent $0.005 of its $0.01 monthly limit in ${formatMonth(new Date().toISOString())}.`,
    });
    expect((half[1] as { usageAlertFired: UsageAlertFiring }).usageAlertFired).toMatchObject({
      organizationId: c.org.id,
      kind: 'threshold',
      share: 50,
    });
    await c.calls(2); // 70 %: 50 % is crossed again, and stays fired
    expect((await c.firings()).map((f) => f.share)).toEqual([50]);
    await c.calls(3); // 100 %
    const full = await c.boss.s.next(isPush('notice'));
    expect((full[1] as { notice: Alert }).notice).toMatchObject({
      type: 'error',
      title: 'Usage alert: 100% of the monthly limit',
    });
    expect(await c.firings()).toMatchObject([
      { kind: 'threshold', share: 100, spent: 0.01, monthlyLimit: 0.01, period: new Date().toISOString().slice(0, 7) },
      { kind: 'threshold', share: 50, spent: 0.005, monthlyLimit: 0.01 },
    ]);

    await barrier(c.boss.s, c.channel);
    await barrier(c.peer.s, c.channel);
    expect(notices(c.boss.s)).toEqual([]); // both were taken by next() above: no third
    expect(notices(c.peer.s)).toEqual([]); // a plain member's console hears nothing

    await t.app.mailer.drain();
    for (const admin of c.admins) {
      const mails = mailTo(admin.email);
      expect(mails.map((m) => m.headers.get('subject'))).toEqual([
        'Tessera usage alert: 50% of the monthly limit',
        'Tessera usage alert: 100% of the monthly limit',
      ]);
      expect(mails[1]!.text).toContain(`${PUBLIC_URL}/organizations/${c.org.id}`);
      expect(mails[1]!.text).toContain('$0.01 of its $0.01 monthly limit');
    }
    expect(mailTo(c.member.email)).toEqual([]);
    for (const l of [c.boss, c.peer]) l.s.ws.close();
  });

  it('fire once when two server processes serve the crossing calls at once', async () => {
    const c = await customer();
    const other = await buildTestApp({
      database: t.database,
      fanout: t.fanout,
      env: { SMTP_URL: smtp.url, PUBLIC_URL },
    });
    try {
      // 24 calls at once, half on each process (each may admit up to the limit from its own count: decision 0016).
      const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => c.call(i % 2 ? other.app : t.app)));
      expect(replies.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(10);
      await Promise.all([t.app.usageAlerts.settle(), other.app.usageAlerts.settle()]);
      // Both processes asked again at once: neither records anything more.
      const again = await Promise.all(
        [t.app, other.app, t.app, other.app].map((a) => a.usageAlerts.evaluate(c.org.id)),
      );
      expect(again.flat()).toEqual([]);

      expect((await c.firings()).map((f) => f.share).sort((a, b) => a - b)).toEqual([80, 100]);
      await c.boss.s.next(isPush('notice'));
      await c.boss.s.next(isPush('notice'));
      await barrier(c.boss.s, c.channel);
      await barrier(c.peer.s, c.channel);
      expect(notices(c.boss.s)).toEqual([]);
      expect(notices(c.peer.s)).toEqual([]);
      await Promise.all([t.app.mailer.drain(), other.app.mailer.drain()]);
      for (const admin of c.admins) {
        expect(
          mailTo(admin.email)
            .map((m) => m.headers.get('subject'))
            .sort(),
        ).toEqual(['Tessera usage alert: 100% of the monthly limit', 'Tessera usage alert: 80% of the monthly limit']);
      }
    } finally {
      await other.app.close();
      for (const l of [c.boss, c.peer]) l.s.ws.close();
    }
  });

  it('are recorded once when many evaluations race on a spend already past them', async () => {
    const org = await makeOrganization(t.database);
    await makeContract(t.database, org.id, { monthlyLimit: 1 });
    const admin = await makeUser(t.database, 'admin', org.id);
    const metrics = { ...emptyMetrics(), inputs: 1 };
    await writeUsage(t.database, [
      {
        requestId: randomUUID(),
        userId: admin.id,
        organizationId: org.id,
        keyId: null,
        method: 'GET',
        path: '/byEmail',
        status: 200,
        metrics,
        costMicros: 2_000_000,
      },
    ]);
    const other = await buildTestApp({ database: t.database, fanout: t.fanout });
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? other.app : t.app).usageAlerts.evaluate(org.id)),
      );
      expect(
        results
          .flat()
          .map((f) => f.firing.share)
          .sort((a, b) => a - b),
      ).toEqual([80, 100]);
    } finally {
      await other.app.close();
    }
  });

  it('stay quiet when turned off, and without a monthly limit', async () => {
    const c = await customer();
    await api.put(`/v2/organizations/${c.org.id}/usage-alerts`, c.boss.cookie, { thresholdsOn: false });
    await c.calls(9);
    expect(await c.firings()).toEqual([]);
    const unlimited = await makeOrganization(t.database);
    await makeContract(t.database, unlimited.id, { monthlyLimit: null });
    expect(await t.app.usageAlerts.evaluate(unlimited.id)).toEqual([]);
    for (const l of [c.boss, c.peer]) l.s.ws.close();
  });
});

// A push of another kind would fail the filters above silently: make sure the helper sees notices at all.
it('recognises a notice push', () => {
  const m: ServerMessage = ['push', { notice: { type: 'info', title: 'x' } }];
  expect(isPush('notice')(m)).toBe(true);
});
