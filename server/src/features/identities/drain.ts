/**
 * Streamed lookups end early when the server drains: each open stream finishes the batch it is on, says where it
 * stopped, meters what it served and ends, so a SIGTERM never waits on (or loses the usage of) a long CSV.
 * Usage written in the background (a stream the database's going away stopped) is waited for when the app closes,
 * before the database is; what is still unwritten then is logged by request id, so it can be billed by hand.
 */
import type { FastifyInstance } from 'fastify';

export interface Drain {
  readonly draining: boolean;
  /** A background usage write the close must wait for. */
  keep(write: Promise<unknown>, what: Record<string, unknown>): void;
}

export const NOT_RECORDED = 'usage not recorded before the server stopped';
export const LATE = 'usage write began after the server stopped waiting for them: it may not be recorded';

/** How long a close waits for background usage writes (the process's own drain limit is longer). */
const BACKGROUND_WRITES_MS = 10_000;

/** Set once the app starts closing (Fastify's preClose runs before it waits for requests in flight). */
export function drainOf(app: FastifyInstance, waitMs = BACKGROUND_WRITES_MS): Drain {
  let draining = false;
  let closed = false;
  const pending = new Map<Promise<unknown>, Record<string, unknown>>();
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onClose', async () => {
    if (pending.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      await Promise.race([Promise.allSettled([...pending.keys()]), late]);
      clearTimeout(timer);
      for (const what of pending.values()) app.log.error(what, NOT_RECORDED);
    }
    closed = true;
  });
  return {
    get draining() {
      return draining;
    },
    keep(write, what) {
      if (closed) {
        // Nobody waits for it any more: said now, in case the process ends first, and again if it fails.
        app.log.warn(what, LATE);
        write.catch(() => app.log.error(what, NOT_RECORDED));
        return;
      }
      const forget = (): void => {
        pending.delete(settled);
      };
      const settled: Promise<void> = write.then(forget, forget);
      pending.set(settled, what);
    },
  };
}
