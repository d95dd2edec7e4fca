/**
 * Streamed lookups end early when the server drains: each open stream finishes the batch it is on, says where it
 * stopped, meters what it served and ends, so a SIGTERM never waits on (or loses the usage of) a long CSV.
 */
import type { FastifyInstance } from 'fastify';

export interface Drain {
  readonly draining: boolean;
}

/** Set once the app starts closing (Fastify's preClose runs before it waits for requests in flight). */
export function drainOf(app: FastifyInstance): Drain {
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  return {
    get draining() {
      return draining;
    },
  };
}
