import { mkdtempSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger, parseMail, startSmtpServer, type TestSmtpServer } from '../test/smtp';
import { createMailer, MAX_ATTEMPTS, type Mailer } from './mailer';
import { actionLink, resetPassword, setPassword, verifyEmail } from './messages';

const PUBLIC_URL = 'https://app.example';
const TOKEN = 'tok_SECRET_9f8e7d6c';
const LINK = actionLink(PUBLIC_URL, '/verify', TOKEN);
const EMAIL = 'jane.doe@private.example';

let server: TestSmtpServer | undefined;
let mailer: Mailer | undefined;

afterEach(async () => {
  await mailer?.close();
  await server?.close();
  mailer = undefined;
  server = undefined;
});

function smtpMailer(url: string, logger = memoryLogger().logger) {
  mailer = createMailer({ smtpUrl: url, dataDir: '/nonexistent', publicUrl: PUBLIC_URL, logger, backoffMs: 1 });
  return mailer;
}

describe('mailer over SMTP', () => {
  it('delivers in the background: send returns before delivery, drain waits for it', async () => {
    server = await startSmtpServer();
    const log = memoryLogger();
    const m = smtpMailer(server.url, log.logger);

    m.send(verifyEmail({ to: EMAIL, name: '<script>alert(1)</script>', link: LINK }));
    expect(server.received).toHaveLength(0);
    await m.drain();

    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail!.recipients).toEqual([EMAIL]);
    expect(mail!.from).toBe('no-reply@app.example');
    const parsed = parseMail(mail!.raw);
    expect(parsed.headers.get('to')).toBe(EMAIL);
    expect(parsed.headers.get('subject')).toBe('Verify your email for Tessera');
    expect(parsed.headers.get('from')).toBe('Tessera <no-reply@app.example>');
    expect(parsed.text).toContain(LINK);
    expect(parsed.html).toContain(`href="${LINK}"`);
    expect(parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(parsed.html).not.toContain('<script>');

    const logText = log.lines.join('');
    expect(log.records().map((r) => r.msg)).toEqual(['mail sent']);
    expect(logText).not.toContain(TOKEN);
    expect(logText).not.toContain(EMAIL);
  });

  it('uses the configured sender and delivers every queued message before drain resolves', async () => {
    server = await startSmtpServer();
    mailer = createMailer({
      smtpUrl: server.url,
      dataDir: '/nonexistent',
      publicUrl: PUBLIC_URL,
      from: 'Accounts <accounts@tessera.test>',
      logger: memoryLogger().logger,
    });
    for (let i = 0; i < 5; i++) mailer.send(setPassword({ to: `user${i}@example.test`, name: `U${i}`, link: LINK }));
    await mailer.drain();
    expect(server.received.map((r) => r.recipients[0]).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `user${i}@example.test`),
    );
    expect(server.received.every((r) => r.from === 'accounts@tessera.test')).toBe(true);
  });

  it('retries a temporary rejection, then logs the failure without the link, token or address', async () => {
    server = await startSmtpServer({ rejectRcpt: { code: 451, message: `Mailbox <${EMAIL}> busy, try later` } });
    const log = memoryLogger();
    const m = smtpMailer(server.url, log.logger);
    const message = resetPassword({ to: EMAIL, name: 'Jane', link: LINK });

    expect(() => m.send(message)).not.toThrow();
    await m.drain();

    expect(server.rcptCount).toBe(MAX_ATTEMPTS);
    expect(server.received).toHaveLength(0);
    const records = log.records();
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [40, 'mail delivery failed; will retry'],
      [40, 'mail delivery failed; will retry'],
      [50, 'mail delivery failed; message dropped'],
    ]);
    expect(records[2]).toMatchObject({
      attempts: MAX_ATTEMPTS,
      subject: 'Reset your Tessera password',
      error: { responseCode: 451, command: 'RCPT TO' },
    });
    const logText = log.lines.join('');
    expect(logText).not.toContain(TOKEN);
    expect(logText).not.toContain(LINK);
    expect(logText).not.toContain(EMAIL);
    expect(logText).not.toContain('expires in 1 hour');
  });

  it('gives up at once on a permanent rejection', async () => {
    server = await startSmtpServer({ rejectRcpt: { code: 550, message: 'No such user' } });
    const log = memoryLogger();
    const m = smtpMailer(server.url, log.logger);
    m.send(verifyEmail({ to: EMAIL, name: 'Jane', link: LINK }));
    await m.drain();
    expect(server.rcptCount).toBe(1);
    expect(log.records()).toMatchObject([{ level: 50, attempts: 1, error: { responseCode: 550, permanent: true } }]);
  });

  it('survives an unreachable server: retries, logs, never throws', async () => {
    const closedServer = await startSmtpServer();
    const url = closedServer.url;
    await closedServer.close();
    const log = memoryLogger();
    const m = smtpMailer(url, log.logger);
    m.send(verifyEmail({ to: EMAIL, name: 'Jane', link: LINK }));
    await m.drain();
    const records = log.records();
    expect(records).toHaveLength(MAX_ATTEMPTS);
    expect(records.at(-1)).toMatchObject({ level: 50, attempts: MAX_ATTEMPTS, error: { code: 'ESOCKET' } });
  });

  it('composes in the background: nothing is made before compose returns, null sends nothing, failures stay vague', async () => {
    server = await startSmtpServer();
    const log = memoryLogger();
    const m = smtpMailer(server.url, log.logger);
    let made = 0;
    m.compose('password reset', async () => {
      made++;
      return resetPassword({ to: EMAIL, name: 'Jane', link: LINK });
    });
    m.compose('password reset', async () => {
      made++;
      return null;
    });
    m.compose('password reset', async () => {
      made++;
      throw Object.assign(new Error(`no account for ${EMAIL}`), { code: '57P01' });
    });
    expect(made).toBe(0);
    await m.drain();

    expect(made).toBe(3);
    expect(server.received.map((r) => r.recipients)).toEqual([[EMAIL]]);
    expect(log.records().map((r) => [r.msg, r.kind, r.code])).toEqual(
      expect.arrayContaining([
        ['mail sent', undefined, undefined],
        ['mail not composed; dropped', 'password reset', '57P01'],
      ]),
    );
    expect(log.lines.join('')).not.toContain(EMAIL);
    await m.close();
    m.compose('password reset', async () => {
      made++;
      return null;
    });
    await m.drain();
    expect(made).toBe(3);
  });

  it('close() delivers what is queued, then drops and logs later messages', async () => {
    server = await startSmtpServer();
    const log = memoryLogger();
    const m = smtpMailer(server.url, log.logger);
    m.send(verifyEmail({ to: EMAIL, name: 'Jane', link: LINK }));
    await m.close();
    expect(server.received).toHaveLength(1);

    expect(() => m.send(verifyEmail({ to: EMAIL, name: 'Jane', link: LINK }))).not.toThrow();
    await m.drain();
    expect(server.received).toHaveLength(1);
    expect(log.records().at(-1)).toMatchObject({ level: 50, msg: 'mailer closed; message dropped' });
  });
});

describe('mailer without SMTP (outbox)', () => {
  it('writes a parseable .eml into dataDir/outbox and logs one line with its path and the link', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tessera-mail-'));
    const log = memoryLogger();
    mailer = createMailer({ smtpUrl: null, dataDir, publicUrl: `${PUBLIC_URL}/`, logger: log.logger });
    mailer.send(setPassword({ to: EMAIL, name: 'Jane <admin>', link: LINK }));
    await mailer.drain();

    const outbox = path.join(dataDir, 'outbox');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/);
    const file = path.join(outbox, files[0]!);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const raw = await readFile(file, 'utf8');
    expect(raw).toContain('\r\n');
    const parsed = parseMail(raw);
    expect(parsed.headers.get('to')).toBe(EMAIL);
    expect(parsed.headers.get('from')).toBe('Tessera <no-reply@app.example>');
    expect(parsed.headers.get('subject')).toBe('Set your Tessera password');
    expect(parsed.headers.get('mime-version')).toBe('1.0');
    expect(parsed.text).toContain(LINK);
    expect(parsed.html).toContain(`href="${LINK}"`);
    expect(parsed.html).toContain('Hello Jane &lt;admin&gt;,');

    const records = log.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 30, file, link: LINK });
    expect(log.lines.join('')).not.toContain(EMAIL);
  });
});
