/**
 * Pino options shared by the server and the CLI. Logs carry no secrets and no personal data: credentials
 * and cookies are censored, and every query string value is replaced, since lookups put e-mails, phones
 * and names there.
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export const REDACTED = '[redacted]';

/** The most a write to a pipe may carry and still never interleave with another writer's (POSIX: at least 512). */
const PIPE_BUF = 4096;

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
 * The server's logger: JSON lines on stdout, written asynchronously (pino's `sync: false` destination), so a
 * request never waits on the write of its access line (decision 0043). Lines are written in order, each whole;
 * `endLogs` writes out the rest before a clean exit, and pino writes out what it holds when a process exits otherwise.
 */
export function serverLogger(
  level: string,
  // Whole lines in writes of at most PIPE_BUF bytes (a longer line goes alone): the workers of a cluster share one
  // stdout, and a pipe keeps such writes whole where a larger one could interleave with another process's.
  destination: DestinationStream = pino.destination({ dest: 1, sync: false, maxWrite: PIPE_BUF }),
): Logger {
  return pino(loggerOptions(level), destination);
}

/** The parts of pino's destination (sonic-boom) that `endLogs` uses. */
interface EndableDestination {
  sync?: boolean;
  destroyed?: boolean;
  end: () => void;
  once: (event: string, listener: () => void) => void;
}

/**
 * Waits until every line a logger (or its children) has been given is written, then ends its destination: the last
 * step before a clean exit. `logger.flush()` is not enough: with pino's destination as the server uses it, it calls
 * back at once, even while a write is under way, and exiting then could cut that write off. A synchronous or other
 * destination has nothing pending and is left open.
 */
export function endLogs(logger: object): Promise<void> {
  const stream = (logger as unknown as Record<symbol, EndableDestination | undefined>)[pino.symbols.streamSym];
  // Only pino's asynchronous destination (sonic-boom with sync: false) holds lines back.
  if (stream?.sync !== false || stream.destroyed || typeof stream.end !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('close', resolve);
    stream.once('error', resolve);
    stream.end();
  });
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
