/**
 * Outgoing mail. send() only queues, so a slow or broken mail server never holds up a request; delivery runs in
 * the background with retries. With SMTP_URL it goes through that server; without it each message is written as
 * an .eml file to DATA_DIR/outbox and its link is logged, so a local install works without any mail server.
 * Logs never carry a message body, a recipient or (in SMTP mode) a link: links hold single-use tokens.
 * compose() queues the making of a message as well (finding its recipient, issuing its token), so a request whose
 * mail depends on who is asking does the same work whatever the answer, and answers before any of it is done.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import type { BaseLogger } from 'pino';
import type { MailMessage } from './messages';

export const MAX_ATTEMPTS = 3;
/** Past this many waiting messages new ones are dropped (and logged): memory stays bounded if SMTP is down. */
export const MAX_QUEUED = 1000;
const CONCURRENCY = 2;
const DEFAULT_BACKOFF_MS = 1000;

export type MailLogger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

export interface MailerOptions {
  smtpUrl: string | null;
  dataDir: string;
  publicUrl: string;
  /** Defaults to 'Tessera <no-reply@{host of publicUrl}>'. */
  from?: string;
  logger: MailLogger;
  /** Wait before the 2nd attempt; the 3rd waits four times as long. Tests shorten it. */
  backoffMs?: number;
}

export interface Mailer {
  /** Queues the message and returns at once; never throws. */
  send(message: MailMessage): void;
  /**
   * Queues the making of a message and returns at once; never throws. `make` runs in the background like a
   * delivery and answers the message, or null for none; if it fails, nothing is sent and the failure is logged
   * under `kind` (never its details, which may name the recipient).
   */
  compose(kind: string, make: () => Promise<MailMessage | null>): void;
  /** Resolves once every queued message has been delivered or given up on. */
  drain(): Promise<void>;
  /** Refuses new messages, drains the queue, then closes the transport. */
  close(): Promise<void>;
}

type Ready = { id: string; message: MailMessage };
/** A message to send, or one to make first (compose). */
type Job = Ready | { id: string; kind: string; make: () => Promise<MailMessage | null> };

type Deliver = (job: Ready) => Promise<void>;

/** An error's kind and the server's reply, with addresses and URLs blanked: SMTP replies often quote them. */
function describeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: 'non-error thrown' };
  const e = err as Error & { code?: unknown; responseCode?: unknown; command?: unknown; permanent?: unknown };
  const message = e.message
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[link]')
    .replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g, '[address]');
  return { code: e.code, responseCode: e.responseCode, command: e.command, permanent: e.permanent, message };
}

/** 5xx SMTP replies (but 503) will come back the same on a retry; nodemailer marks them permanent. */
function isPermanent(err: unknown): boolean {
  return (err as { permanent?: unknown } | null)?.permanent === true;
}

function defaultFrom(publicUrl: string): string {
  return `Tessera <no-reply@${new URL(publicUrl).hostname}>`;
}

/** ISO 8601 basic format (no colons, which Windows forbids in file names); sorts by time. */
function fileStamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '');
}

function smtpDelivery(smtpUrl: string, from: string, logger: MailLogger): { deliver: Deliver; close(): void } {
  // Options first: query parameters of SMTP_URL (e.g. ?connectionTimeout=) override these defaults.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async deliver({ id, message }) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      logger.info({ mailId: id, subject: message.subject }, 'mail sent');
    },
    close: () => transport.close(),
  };
}

function outboxDelivery(dataDir: string, from: string, logger: MailLogger): { deliver: Deliver; close(): void } {
  const outbox = path.join(dataDir, 'outbox');
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async deliver({ id, message }) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const file = path.join(outbox, `${fileStamp(new Date())}-${randomBytes(6).toString('hex')}.eml`);
      // The file holds a live token: readable by the server's user only.
      await writeFile(file, info.message as Buffer, { mode: 0o600, flag: 'wx' });
      logger.info(
        { mailId: id, subject: message.subject, file, link: message.link },
        'no SMTP_URL: mail written to the outbox; open the link to continue',
      );
    },
    close: () => transport.close(),
  };
}

export function createMailer(options: MailerOptions): Mailer {
  const { logger } = options;
  const from = options.from ?? defaultFrom(options.publicUrl);
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const delivery = options.smtpUrl
    ? smtpDelivery(options.smtpUrl, from, logger)
    : outboxDelivery(options.dataDir, from, logger);

  const queue: Job[] = [];
  let active = 0;
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const isIdle = () => active === 0 && queue.length === 0;

  /** The job's message, made now if it is a composed one; null when there is none to send. */
  async function messageOf(job: Job): Promise<Ready | null> {
    if (!('make' in job)) return job;
    try {
      const message = await job.make();
      return message ? { id: job.id, message } : null;
    } catch (err) {
      logger.error(
        { mailId: job.id, kind: job.kind, code: (err as { code?: unknown })?.code },
        'mail not composed; dropped',
      );
      return null;
    }
  }

  async function deliverWithRetries(queued: Job): Promise<void> {
    const job = await messageOf(queued);
    if (!job) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await delivery.deliver(job);
        return;
      } catch (err) {
        const error = describeError(err);
        if (attempt >= MAX_ATTEMPTS || isPermanent(err)) {
          logger.error(
            { mailId: job.id, subject: job.message.subject, attempts: attempt, error },
            'mail delivery failed; message dropped',
          );
          return;
        }
        const retryInMs = backoffMs * 4 ** (attempt - 1);
        logger.warn({ mailId: job.id, attempt, retryInMs, error }, 'mail delivery failed; will retry');
        await sleep(retryInMs);
      }
    }
  }

  function pump(): void {
    while (active < CONCURRENCY && queue.length > 0) {
      const job = queue.shift()!;
      active++;
      deliverWithRetries(job)
        .catch((err: unknown) => logger.error({ mailId: job.id, error: describeError(err) }, 'mail queue error'))
        .finally(() => {
          active--;
          pump();
          if (isIdle()) {
            const waiters = idleWaiters;
            idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
  }

  function drain(): Promise<void> {
    if (isIdle()) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  function enqueue(job: Job, subject: string): void {
    if (closed || queue.length >= MAX_QUEUED) {
      logger.error(
        { subject, queued: queue.length },
        closed ? 'mailer closed; message dropped' : 'mail queue full; message dropped',
      );
      return;
    }
    queue.push(job);
    // Start on a later turn: the caller's request finishes before any mail work begins.
    setImmediate(pump);
  }

  return {
    send(message) {
      enqueue({ id: randomUUID(), message }, message.subject);
    },
    compose(kind, make) {
      enqueue({ id: randomUUID(), kind, make }, kind);
    },
    drain,
    async close() {
      closed = true;
      await drain();
      delivery.close();
    },
  };
}
