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
    },
  };
}
