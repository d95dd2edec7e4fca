/**
 * A job the server runs now and then on its own (retention, the monthly close, the unanswered-chat check): at most
 * one run at a time in this process (asking again joins the run under way), on an unref'd timer that never keeps
 * the process alive, a failed run logged by its error code only (never a stack with rows in it) and tried again at
 * the next tick, and a stop that waits for the run under way, which may end early by asking `stopping()`.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicJob<T> {
  /** Runs now, or joins the run under way. */
  runOnce(): Promise<T>;
  /** Runs now, then every `everyMs`, until stopped; a second start does nothing. */
  start(everyMs: number): void;
  /** Stops the timer and waits for the run under way. */
  stop(): Promise<void>;
}

export function periodicJob<T>(options: {
  /** Named in the log line of a failed run. */
  name: string;
  /** `stopping()` turns true once stop() is called: a long run ends after its current step. */
  run: (stopping: () => boolean) => Promise<T>;
  logger?: Pick<FastifyBaseLogger, 'warn'>;
}): PeriodicJob<T> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<T> | null = null;
  let stopped = false;
  const stopping = () => stopped;

  function runOnce(): Promise<T> {
    if (!running) stopped = false; // stop() ends the run under way; one asked for afterwards runs whole
    running ??= options.run(stopping).finally(() => {
      running = null;
    });
    return running;
  }

  function tick(): void {
    runOnce().catch((error: unknown) => {
      options.logger?.warn({ code: (error as { code?: unknown })?.code }, `${options.name} failed`);
    });
  }

  return {
    runOnce,
    start(everyMs) {
      if (timer) return;
      tick();
      timer = setInterval(tick, everyMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => null);
    },
  };
}
