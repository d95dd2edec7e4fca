/**
 * Mail for browser tests: the real SMTP server of the mail tests (server/src/test/smtp.ts) on 127.0.0.1, and
 * the real server sending to it through SMTP_URL. `nextMail(to)` waits for the next message to that address
 * and gives it parsed, with the action link it carries (verify, set or reset a password).
 */
import { type ParsedMail, parseMail, startSmtpServer, type TestSmtpServer } from '@tessera/server/test/smtp';
import { expect } from 'vitest';
import { useStarted } from './browser';
import { type RunningServer, type ServerOptions, startServer } from './server';

export interface Mail extends ParsedMail {
  /** Envelope recipients. */
  recipients: string[];
  subject: string;
  /** The link of the message's button, e.g. http://localhost:1234/password/reset?token=… */
  link: string;
}

export interface Mailbox {
  /** smtp://127.0.0.1:{port}, for SMTP_URL. */
  url: string;
  smtp: TestSmtpServer;
  /**
   * The next message to `to` not yet taken by an earlier call, waiting for it (the server sends in the
   * background). Fails if none arrives within `timeout` ms.
   */
  nextMail(to: string, timeout?: number): Promise<Mail>;
  close(): Promise<void>;
}

const LINK = /https?:\/\/[^\s<>"']+[?&]token=[^\s<>"']+/;

function readMail(raw: string, recipients: string[]): Mail {
  const parsed = parseMail(raw);
  const link = LINK.exec(parsed.text)?.[0];
  if (!link) throw new Error(`no action link in the mail to ${recipients.join(', ')}:\n${parsed.text}`);
  return { ...parsed, recipients, subject: parsed.headers.get('subject') ?? '', link };
}

export async function startMailbox(): Promise<Mailbox> {
  const smtp = await startSmtpServer();
  const handedOut = new Set<number>();
  return {
    url: smtp.url,
    smtp,
    async nextMail(to, timeout = 15_000) {
      const address = to.toLowerCase();
      let index = -1;
      await expect
        .poll(
          () => {
            index = smtp.received.findIndex(
              (m, i) => !handedOut.has(i) && m.recipients.some((r) => r.toLowerCase() === address),
            );
            return index >= 0;
          },
          { timeout, message: `a mail to ${to}` },
        )
        .toBe(true);
      handedOut.add(index);
      const received = smtp.received[index]!;
      return readMail(received.raw, received.recipients);
    },
    close: () => smtp.close(),
  };
}

/** A server that sends its mail to a new local mailbox. */
export async function startServerWithMail(
  options: ServerOptions = {},
): Promise<{ server: RunningServer; mailbox: Mailbox }> {
  const mailbox = await startMailbox();
  try {
    const server = await startServer({ ...options, env: { ...options.env, SMTP_URL: mailbox.url } });
    return { server, mailbox };
  } catch (err) {
    await mailbox.close();
    throw err;
  }
}

/** A spec file's mailbox, server and browser; root and the seeded users (but signers) have accepted the agreement. */
export function useServerWithMail(options: ServerOptions = {}) {
  return useStarted(() => startServerWithMail(options), { close: (started) => started.mailbox.close() });
}
