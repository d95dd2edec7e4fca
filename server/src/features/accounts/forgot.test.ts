/**
 * Forgotten password (issue 12 item 13): the request does the same for a known and an unknown address (throttling
 * alone) and answers the same; finding the account, issuing the token and mailing it happen after the reply.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, emailTokens, users } from '../../db/schema';
import { buildTestApp, CONSOLE_HEADERS, makeUser, type TestApp } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { memoryLimiter } from '../throttle/limiter';
import { TOO_MANY } from '../throttle/rules';

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.tessera.example' },
    limiter: memoryLimiter(),
  });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
});

let ip = 0;
const forgot = (email: string, remoteAddress = `10.3.0.${++ip}`) =>
  t.app.inject({ method: 'POST', url: '/auth/forgot', headers: CONSOLE_HEADERS, payload: { email }, remoteAddress });
async function mailsTo(address: string) {
  await t.app.mailer.drain();
  return smtp.received.filter((m) => m.recipients.includes(address)).map((m) => parseMail(m.raw));
}
/** What a caller can see of a reply, but its request id. */
const visible = (res: Awaited<ReturnType<typeof forgot>>) => {
  const { 'x-request-id': _, date: __, ...headers } = res.headers;
  return { status: res.statusCode, headers, body: res.body };
};

describe('POST /auth/forgot', () => {
  it('answers a known, an unknown and a deactivated address alike, and mails the known one only', async () => {
    const known = await makeUser(t.database);
    const inactive = await makeUser(t.database);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    const unknown = `nobody-${known.email}`;

    const replies = [await forgot(known.email), await forgot(unknown), await forgot(inactive.email)];
    expect(replies[0]!.json()).toEqual({ sent: true });
    expect(replies.map(visible)).toEqual([visible(replies[0]!), visible(replies[0]!), visible(replies[0]!)]);

    const [mail, ...more] = await mailsTo(known.email);
    expect(more).toEqual([]);
    expect(mail?.headers.get('subject')).toBe('Reset your Tessera password');
    expect(mail?.text).toMatch(/https:\/\/console\.tessera\.example\/password\/reset\?token=[A-Za-z0-9_-]+/);
    expect(await mailsTo(unknown)).toEqual([]);
    expect(await mailsTo(inactive.email)).toEqual([]);
    // Only the known, active account got a token, and its request was audited, once the queue had run.
    const tokens = await t.database.db
      .select({ userId: emailTokens.userId })
      .from(emailTokens)
      .where(and(inArray(emailTokens.userId, [known.id, inactive.id]), eq(emailTokens.purpose, 'reset')));
    expect(tokens).toEqual([{ userId: known.id }]);
    const audited = await t.database.db
      .select({ targetId: auditLog.targetId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'password.forgot'), eq(auditLog.targetId, String(known.id))));
    expect(audited).toHaveLength(1);
  });

  it('sends the reset to the address on record, however the request spelled it', async () => {
    const known = await makeUser(t.database);
    expect((await forgot(` ${known.email.toUpperCase()} `)).statusCode).toBe(200);
    const [mail] = await mailsTo(known.email);
    expect(mail?.headers.get('to')).toBe(known.email);
  });

  it('counts every spelling of an address against its one mail throttle', async () => {
    const known = await makeUser(t.database);
    const spellings = [known.email, known.email.toUpperCase(), ` ${known.email}`, known.email.replace('@', '＠')];
    for (let i = 0; i < 5; i++) expect((await forgot(spellings[i % spellings.length]!)).statusCode).toBe(200);
    const refused = await forgot(known.email.toUpperCase());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(TOO_MANY);
    expect(await mailsTo(known.email)).toHaveLength(5);
  });
});
