/**
 * The template sandbox (decision 0018): customer templates are evaluated in a few child processes, never in the
 * server's own, so none can stall it. Each process has a small heap; one that overflows it dies alone (a worker
 * thread's overflow can abort the whole server: nodejs/node#47224), and one whose record runs past the hard limit
 * (a backtracking regular expression, which JSONata's own guard cannot interrupt) is killed. Either way the call
 * answers 422 and a new process takes its place. Processes start on first use, are held only while busy and end with
 * the app.
 */
import { type ChildProcess, fork } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { Unavailable } from '../../http/errors';
import { TEMPLATE_LIMITS, TemplateError } from './evaluate';

/** Everything a job may use, as the child reads it (sandbox-child.mjs). */
export interface SandboxLimits {
  timeoutMs: number;
  maxDepth: number;
  maxIdentityBytes: number;
  maxReplyBytes: number;
  requestBudgetMs: number;
  /** What is left of the request's budget and reply size when this job starts. */
  msLeft: number;
  bytesLeft: number;
}

export interface SandboxJob {
  expression: string;
  records: readonly Record<string, unknown>[];
  limits: SandboxLimits;
  /**
   * True only for the synthetic sample record: failures are then told in full. On real records a failure is a fixed
   * sentence per class of error, with no value or position (issue 28, finding 1; sandbox-child.mjs).
   */
  detail?: boolean;
}

/** The outputs in order, their size as JSON and the milliseconds the child spent on them. */
export interface SandboxResult {
  outputs: Record<string, unknown>[];
  bytes: number;
  ms: number;
}

export interface TemplateSandbox {
  run(job: SandboxJob): Promise<SandboxResult>;
  /** Ends every process; jobs not finished fail, and so does any later run (503). */
  close(): Promise<void>;
}

/** Events for tests and operators: spawn, ready, dispatch, stop (killed, with its reason), exit. */
export const SANDBOX_CHANNEL = diagnostics.channel('tessera:template-sandbox');

export const SANDBOX_MESSAGES = {
  stopped: `it ran longer than ${TEMPLATE_LIMITS.hardRecordMs} ms on one record and was stopped.`,
  memory: `it needed more than ${TEMPLATE_LIMITS.heapMb} MB of memory, the limit of a template.`,
  ended: (how: string) => `the process evaluating it ended (${how}).`,
  unavailable: 'Templates cannot be evaluated just now; please retry shortly.',
  closed: 'The server is shutting down; please retry.',
} as const;

const CHILD = new URL('./sandbox-child.mjs', import.meta.url);
/** Children that die before they are ready, in a row, before queued jobs are failed rather than retried. */
const MAX_FAILED_STARTS = 3;
/** The end of a child's stderr kept to tell why it died. */
const STDERR_KEPT = 4096;

type ChildMessage =
  | { kind: 'ready' }
  | { kind: 'progress'; id: number }
  | { kind: 'done'; id: number; outputs: Record<string, unknown>[]; bytes: number; ms: number }
  | { kind: 'failed'; id: number; reason: string; position?: number; ms: number };

interface Waiting {
  id: number;
  job: SandboxJob;
  resolve(result: SandboxResult): void;
  reject(error: Error): void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  running: (Waiting & { timer: NodeJS.Timeout; signs: number }) | null;
  /** Why the server is ending it, once it is. */
  stopping: string | null;
  stderr: string;
}

let sandboxes = 0;

export interface SandboxOptions {
  /** Processes: two at most, so templates never take every core of a small machine from the server. */
  size?: number;
  /** Told when a process is killed or dies while evaluating, with the reason the call is given. */
  onFault?: (reason: string) => void;
}

export function createTemplateSandbox(options: SandboxOptions = {}): TemplateSandbox {
  const size = options.size ?? Math.min(2, availableParallelism());
  const sandbox = ++sandboxes;
  const slots = new Set<Slot>();
  const queue: Waiting[] = [];
  let nextId = 0;
  let failedStarts = 0;
  let closed = false;

  const publish = (event: string, slot: Slot, extra: Record<string, unknown> = {}) => {
    if (SANDBOX_CHANNEL.hasSubscribers) SANDBOX_CHANNEL.publish({ event, sandbox, pid: slot.child.pid, ...extra });
  };

  function spawn(): void {
    const child = fork(CHILD, [], {
      // Plain node: neither tsx's loader nor the server's flags or environment (secrets included) reach the child.
      execArgv: [`--max-old-space-size=${TEMPLATE_LIMITS.heapMb}`, '--disallow-code-generation-from-strings'],
      env: {},
      // Records are JSON already; Node 20's JSON channel costs the server's thread about half what 'advanced' does.
      serialization: 'json',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = { child, ready: false, running: null, stopping: null, stderr: '' };
    slots.add(slot);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      slot.stderr = (slot.stderr + text).slice(-STDERR_KEPT);
    });
    child.on('message', (message: ChildMessage) => received(slot, message));
    child.on('error', () => {
      // A process that never started (no pid) has no exit to wait for.
      if (child.pid === undefined) exited(slot, null, null);
      else stop(slot, SANDBOX_MESSAGES.ended('it could not be reached'));
    });
    // 'close' rather than 'exit': by then its stderr has been read, which tells a heap overflow.
    child.on('close', (code, signal) => exited(slot, code, signal));
    publish('spawn', slot);
    holdWhileBusy();
  }

  function received(slot: Slot, message: ChildMessage): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      failedStarts = 0;
      publish('ready', slot);
      pump();
      return;
    }
    const running = slot.running;
    if (!running || message.id !== running.id || slot.stopping) return;
    if (message.kind === 'progress') {
      running.signs++;
      running.timer.refresh();
      return;
    }
    clearTimeout(running.timer);
    slot.running = null;
    if (message.kind === 'done') {
      running.resolve({ outputs: message.outputs, bytes: message.bytes, ms: message.ms });
    } else {
      running.reject(new TemplateError(message.reason, message.position));
    }
    pump();
  }

  /**
   * No sign from the child for the hard limit. After a stall of this thread, timers run before the messages that
   * waited meanwhile are read: look again once they are (setImmediate runs after I/O), so a late sign still counts.
   */
  function overdue(slot: Slot): void {
    const running = slot.running;
    if (!running) return;
    const signs = running.signs;
    setImmediate(() => {
      if (slot.running === running && running.signs === signs) stop(slot, SANDBOX_MESSAGES.stopped);
    });
  }

  /** Kills the child; its job, if any, fails with `reason` (a template's fault: 422). */
  function stop(slot: Slot, reason: string): void {
    if (slot.stopping) return;
    slot.stopping = reason;
    publish('stop', slot, { reason });
    if (slot.running) options.onFault?.(reason);
    fail(slot, new TemplateError(reason));
    slot.child.kill('SIGKILL');
  }

  function fail(slot: Slot, error: Error): void {
    const running = slot.running;
    if (!running) return;
    clearTimeout(running.timer);
    slot.running = null;
    running.reject(error);
  }

  function exited(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (!slots.delete(slot)) return;
    publish('exit', slot, { code, signal });
    if (slot.running) {
      // It died by itself while evaluating: a heap overflow aborts it (and says so on stderr).
      const outOfMemory = /heap out of memory|Allocation failed/.test(slot.stderr);
      const reason = outOfMemory ? SANDBOX_MESSAGES.memory : SANDBOX_MESSAGES.ended(signal ?? `exit ${code}`);
      options.onFault?.(reason);
      fail(slot, new TemplateError(reason));
    }
    if (closed) return;
    if (!slot.ready && !slot.stopping && ++failedStarts >= MAX_FAILED_STARTS) {
      // The sandbox cannot start (no memory, a broken install): fail what waits rather than retry for ever.
      for (const waiting of queue.splice(0)) waiting.reject(new Unavailable(SANDBOX_MESSAGES.unavailable));
      failedStarts = 0;
      holdWhileBusy();
      return;
    }
    if (queue.length > 0 || slots.size < size) spawn();
    pump();
  }

  function pump(): void {
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (!slot.ready || slot.running || slot.stopping) continue;
      const next = queue.shift()!;
      const timer = setTimeout(() => overdue(slot), TEMPLATE_LIMITS.hardRecordMs);
      slot.running = { ...next, timer, signs: 0 };
      publish('dispatch', slot, { records: next.job.records.length });
      slot.child.send({ id: next.id, ...next.job }, (error) => {
        if (error) stop(slot, SANDBOX_MESSAGES.ended('it could not be reached'));
      });
    }
    holdWhileBusy();
  }

  /** Children keep the process alive only while there is work, so an idle sandbox never holds up an exit. */
  function holdWhileBusy(): void {
    const busy = queue.length > 0 || [...slots].some((s) => s.running);
    for (const { child } of slots) {
      const handles = [child, child.channel, child.stderr as Socket | null];
      for (const handle of handles) {
        if (busy) handle?.ref();
        else handle?.unref();
      }
    }
  }

  return {
    run(job) {
      if (closed) return Promise.reject(new Unavailable(SANDBOX_MESSAGES.closed));
      return new Promise<SandboxResult>((resolve, reject) => {
        queue.push({ id: ++nextId, job, resolve, reject });
        while (slots.size < size) spawn();
        pump();
      });
    },
    async close() {
      closed = true;
      for (const waiting of queue.splice(0)) waiting.reject(new Unavailable(SANDBOX_MESSAGES.closed));
      await Promise.all(
        [...slots].map(
          (slot) =>
            new Promise<void>((resolve) => {
              slot.child.once('close', () => resolve());
              // Held until it is gone (its stderr read to the end), even when idle.
              slot.child.ref();
              (slot.child.stderr as Socket | null)?.ref();
              slot.stopping ??= SANDBOX_MESSAGES.closed;
              fail(slot, new Unavailable(SANDBOX_MESSAGES.closed));
              slot.child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
