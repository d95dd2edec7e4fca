/**
 * A conversation left unanswered longer than CHAT_UNANSWERED_MINUTES is mailed to SUPPORT_EMAIL through a real
 * SMTP server: once per wait, even when two processes run the check at the same moment; not before its time, not
 * once staff answered, and again for a new wait after an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';

const SUPPORT = 'chat-support@tessera.test';
const MINUTES = 10;
let a: TestApp;
let b: TestApp;
let smtp: TestSmtpServer;
const api = consoleClient(() => a.app);

beforeAll(async () => {
  smtp = await startSmtpServer();
  const env = { SMTP_URL: smtp.url, SUPPORT_EMAIL: SUPPORT, CHAT_UNANSWERED_MINUTES: String(MINUTES) };
  a = await buildTestApp({ env });
  b = await buildTestApp({ env, database: a.database });
});
afterAll(async () => {
  await a.app.close();
  await b.app.close();
  await smtp.close();
});

const minutes = (n: number) => Date.now() + n * 60_000;

function mailsAbout(id: number) {
  return smtp.received
    .map((m) => ({ recipients: m.recipients, mail: parseMail(m.raw) }))
    .filter(({ mail }) => mail.headers.get('subject') === `Tessera support chat #${id} waits for an answer`);
}

async function drain() {
  await a.app.mailer.drain();
  await b.app.mailer.drain();
}

describe('unanswered conversations are mailed to the support address', () => {
  it('once, after the configured minutes, with what the user wrote escaped, whichever process checks', async () => {
    const user = await makeUser(a.database, 'user');
    const cookie = await signIn(a.app, user.email);
    const id = (await api.post('/v2/chat/conversations', cookie, {})).json().chatConversation.id;
    await api.post(`/v2/chat/conversations/${id}/messages`, cookie, { text: 'My <b>export</b> fails & stops' });

    expect(await a.app.supportChat.checkUnanswered(minutes(MINUTES - 1))).not.toContain(id);
    const [first, second] = await Promise.all([
      a.app.supportChat.checkUnanswered(minutes(MINUTES + 1)),
      b.app.supportChat.checkUnanswered(minutes(MINUTES + 1)),
    ]);
    expect([...first!, ...second!].filter((x) => x === id)).toEqual([id]);
    expect(await a.app.supportChat.checkUnanswered(minutes(MINUTES + 5))).not.toContain(id);
    await drain();

    const mails = mailsAbout(id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.recipients).toEqual([SUPPORT]);
    expect(mails[0]!.mail.text).toContain('My <b>export</b> fails & stops');
    expect(mails[0]!.mail.text).toContain(user.email);
    expect(mails[0]!.mail.html).toContain('My &lt;b&gt;export&lt;/b&gt; fails &amp; stops');
    expect(mails[0]!.mail.html).toContain(`/chat?conversation=${id}`);
  });

  it('not once staff answered; again for the next wait', async () => {
    const user = await makeUser(a.database, 'user');
    const cookie = await signIn(a.app, user.email);
    const staffCookie = await signIn(a.app, (await makeUser(a.database, 'super')).email);
    const id = (await api.post('/v2/chat/conversations', cookie, {})).json().chatConversation.id;
    await api.post(`/v2/chat/conversations/${id}/messages`, cookie, { text: 'first question' });
    await api.post(`/v2/chat/conversations/${id}/messages`, staffCookie, { text: 'answered' });
    expect(await a.app.supportChat.checkUnanswered(minutes(MINUTES + 1))).not.toContain(id);

    await api.post(`/v2/chat/conversations/${id}/messages`, cookie, { text: 'second question' });
    expect(await b.app.supportChat.checkUnanswered(minutes(MINUTES + 1))).toContain(id);
    await drain();
    const mails = mailsAbout(id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mail.text).toContain('second question');
    expect(mails[0]!.mail.text).not.toContain('first question');
  });

  it('logs no personal data', async () => {
    const logs = [...a.logs, ...b.logs].join('\n');
    expect(logs).not.toContain('export');
    expect(logs).not.toContain(SUPPORT);
    expect(logs).toContain('chatConversationId');
  });
});
