/**
 * Test support for the mail tests: a real SMTP server on a free local port, a small reader for the RFC 822
 * messages it (or the outbox) receives, and a real pino logger writing into memory.
 */
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { loggerOptions } from '../logger';

export interface ReceivedMail {
  from: string;
  recipients: string[];
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** RCPT TO commands seen, accepted or not: one per delivery attempt here. */
  rcptCount: number;
  close(): Promise<void>;
}

/** Starts an SMTP server; with `rejectRcpt` it answers every RCPT TO with that reply code and text. */
export async function startSmtpServer(
  options: { rejectRcpt?: { code: number; message: string } } = {},
): Promise<TestSmtpServer> {
  const state: TestSmtpServer = { url: '', received: [], rcptCount: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      state.rcptCount++;
      if (!options.rejectRcpt) return callback();
      const err = Object.assign(new Error(options.rejectRcpt.message), { responseCode: options.rejectRcpt.code });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        state.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

export interface ParsedMail {
  headers: Map<string, string>;
  text: string;
  html: string;
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** Reads the headers of a message and the decoded text/plain and text/html parts of it. */
export function parseMail(raw: string): ParsedMail {
  const top = splitEntity(raw);
  const parsed: ParsedMail = { headers: top.headers, text: '', html: '' };
  const visit = (entity: { headers: Map<string, string>; body: string }) => {
    const type = entity.headers.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      const parts = entity.body.split(`--${boundary}`).slice(1);
      for (const part of parts) {
        if (part.startsWith('--')) break;
        visit(splitEntity(part.replace(/^\r?\n/, '')));
      }
      return;
    }
    const content = decodeBody(entity.body, (entity.headers.get('content-transfer-encoding') ?? '').toLowerCase());
    if (/^text\/html/i.test(type)) parsed.html = content;
    else if (/^text\/plain/i.test(type)) parsed.text = content;
  };
  visit(top);
  return parsed;
}

/** A real pino logger with the server's options, writing each line into memory. */
export function memoryLogger(): { logger: pino.Logger; lines: string[]; records: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const logger = pino(loggerOptions('info'), { write: (line: string) => void lines.push(line) });
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}
