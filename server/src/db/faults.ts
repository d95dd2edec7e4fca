/**
 * Telling a database that is away (refused, reset, shut down, stalled past a timeout) from a request's own fault.
 * Such a failure is nobody's mistake and passes: the API answers 503 with Retry-After, and logs it once per burst
 * rather than a stack per request (issue 12).
 */

/** Node's socket errors for a peer that refuses, resets or cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is away or overloaded: class 08 (connection exceptions), 57P01-57P03 (shut down by an
 * administrator, crash, cannot connect now), 53300 (too many connections), and 57014, a statement cancelled by
 * its statement_timeout (the only way this server cancels statements).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** node-postgres reports a lost connection or its own timeouts with these messages and no code. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** Seconds a client is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 3;

/** The database fault in an error or its causes (drizzle wraps driver errors), if it is one. */
export function databaseFault(error: unknown): { code: string; message: string } | null {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    depth < 4;
    depth++
  ) {
    if (!e || typeof e !== 'object') return null;
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')) return { code, message };
    if (!code && DRIVER_MESSAGES.some((m) => message.startsWith(m))) return { code: 'driver', message };
    e = e.cause as typeof e;
  }
  return null;
}

export interface FaultLog {
  /** Notes one request failed by a database fault; logs only the first of a burst, and a count at its end. */
  note(fault: { code: string; message: string }): void;
}

interface Logger {
  error(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** Faults within `windowMs` of a burst's first one are counted, then told in one line. */
export function createFaultLog(log: Logger, windowMs = 10_000): FaultLog {
  let burst: { count: number; timer: NodeJS.Timeout } | null = null;
  return {
    note(fault) {
      if (burst) {
        burst.count++;
        return;
      }
      log.error({ fault }, 'database unavailable: answering 503 with Retry-After');
      const open = {
        count: 0,
        timer: setTimeout(() => {
          burst = null;
          if (open.count > 0) log.warn({ count: open.count }, 'database unavailable: more requests answered 503');
        }, windowMs),
      };
      open.timer.unref();
      burst = open;
    },
  };
}
