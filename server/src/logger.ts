/**
 * Pino options shared by the server and the CLI. Logs carry no secrets and no personal data: credentials
 * and cookies are censored, and every query string value is replaced, since lookups put e-mails, phones
 * and names there.
 */
import type { LoggerOptions } from 'pino';

export const REDACTED = '[redacted]';

/** Keeps the path and the parameter names of a URL; drops every value. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=${REDACTED}`);
  return `${url.slice(0, q)}?${names.join('&')}`;
}

interface LoggedRequest {
  id?: string;
  method?: string;
  url?: string;
  ip?: string;
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.secret',
        '*.token',
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: redactUrl(req.url ?? '') }),
      err: serializeError,
    },
  };
}

/**
 * Errors as logs may hold them: name, code, message and stack, with what a database driver quotes of the
 * query's values (e-mail addresses, token hashes, IPs) cut off, and the same for causes.
 */
export function serializeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: scrub(String(err)) };
  const out: Record<string, unknown> = { type: err.name, message: scrub(err.message) };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (err.stack)
    out.stack = [out.message, ...err.stack.split('\n').filter((line) => line.trimStart().startsWith('at '))].join('\n');
  if (err.cause !== undefined && depth < 3) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/** Drops bound parameter lists ("params: …") and anything after "Failed query:" but the statement's first words. */
export function scrub(message: string): string {
  return message
    .replace(/\bparams: [\s\S]*$/i, 'params: [redacted]')
    .replace(/\S+@\S+\.[a-z]{2,}/gi, '[address]')
    .slice(0, 2000);
}
