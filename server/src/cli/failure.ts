/**
 * How the CLI tells why it stopped: one line on stderr an operator can act on, the stack only when asked for
 * (--debug, or DEBUG set), and no secret: a database URL is shown without its password or query values.
 */
import { inspect } from 'node:util';
import { DrizzleQueryError } from 'drizzle-orm';
import { ConfigError } from '../config';
import { AppError } from '../http/errors';
import { redactUrl } from '../logger';
import { EXIT } from './exit-codes';
import { UsageError } from './usage-error';

export interface Failure {
  code: number;
  /** What to print on stderr, ending in a newline. */
  text: string;
}

export interface FailureContext {
  /** The command run, e.g. "import" or "user create"; empty when none was recognised. */
  command: string;
  debug: boolean;
  /** DATABASE_URL, when the CLI talks to a PostgreSQL server. */
  databaseUrl: string | null;
}

/** Node's network errors a connection attempt ends with, in words. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
};

/**
 * SQLSTATEs with which PostgreSQL turns a connection away; its own message says why and names no secret. Class 28:
 * wrong password, unknown role, no pg_hba.conf entry; 3D000: no such database; 57P03: starting or shutting down;
 * 53300: too many connections.
 */
const TURNED_AWAY = /^(28|3D000$|57P03$|53300$)/;

interface ErrorFields {
  code?: unknown;
  port?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The error, its causes and (for a connection tried on several addresses) the errors it aggregates. */
function* chain(err: unknown): Generator<ErrorFields> {
  const queue = [err];
  const seen = new Set<unknown>();
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    yield e as ErrorFields;
    queue.push((e as ErrorFields).cause);
    if (e instanceof AggregateError) queue.push(...e.errors);
  }
}

/** The URL as it may be shown: no password, no query values (a password may be passed there too). */
export function shownDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return redactUrl(parsed.toString());
  } catch {
    return 'DATABASE_URL';
  }
}

/** Why the database at `url` could not be reached or turned the connection away, or null if that is not the error. */
export function unreachableReason(err: unknown, url: string): string | null {
  let port = 5432;
  try {
    port = Number(new URL(url).port || 5432);
  } catch {}
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    // Another server's refusal (Redis, say) is not the database's: a connect error names the port it tried.
    if (NETWORK_REASONS[code] && (typeof e.port !== 'number' || e.port === port)) return NETWORK_REASONS[code];
    if (TURNED_AWAY.test(code) && message) return firstLine(message);
    if (/timeout expired|connection timeout/i.test(message)) return 'timed out';
    if (/^Connection terminated/.test(message)) return 'the server closed the connection';
  }
  return null;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

/** The error's own words on one line. drizzle's wrapper says "Failed query: <statement> params: <values>": the
 * driver's error inside it says what went wrong, without the statement's data. */
function summary(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const inner = err instanceof DrizzleQueryError && err.cause instanceof Error ? err.cause : err;
  return firstLine(inner.message) || inner.name;
}

export function describeFailure(err: unknown, context: FailureContext): Failure {
  const who = context.command ? `tessera ${context.command}` : 'tessera';
  if (err instanceof UsageError || (err as ErrorFields | null)?.code?.toString().startsWith('ERR_PARSE_ARGS_')) {
    const message = summary(err);
    const stop = /[.!?]$/.test(message) ? '' : '.';
    return { code: EXIT.usage, text: `${who}: ${message}${stop} Try '${who} --help'.\n` };
  }
  if (err instanceof AppError || err instanceof ConfigError) {
    return { code: EXIT.usage, text: `${who}: ${summary(err)}\n` };
  }
  const stack = context.debug ? `${inspect(err)}\n` : '';
  const reason = context.databaseUrl ? unreachableReason(err, context.databaseUrl) : null;
  if (reason && context.databaseUrl) {
    const where = shownDatabaseUrl(context.databaseUrl);
    return { code: EXIT.failed, text: `tessera: cannot reach the database at ${where} (${reason})\n${stack}` };
  }
  const hint = context.debug ? '' : ' (run again with --debug for the stack)';
  return { code: EXIT.failed, text: `${who}: ${summary(err)}${hint}\n${stack}` };
}
