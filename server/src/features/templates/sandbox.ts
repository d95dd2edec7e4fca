/**
 * The template sandbox (decision 0018): customer templates are evaluated in a few child processes, never in the
 * server's own, so none can stall it. Each process has a small heap; one that overflows it dies alone (a worker
 * thread's overflow can abort the whole server: nodejs/node#47224), and one whose record runs past the hard limit
 * (a backtracking regular expression, which JSONata's own guard cannot interrupt) is killed. Either way the call
 * answers 422 and a new process takes its place. Processes start on first use, are held only while busy and end with
 * the app. Jobs wait per owner, an organization or a user without one, and take turns (fair-queue.ts, decision 0049):
 * one owner's flood cannot starve another's, and past its bound an owner's call is refused with 429.
 */
import { type ChildProcess, fork } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { TooManyRequests, Unavailable } from '../../http/errors';
import { sandboxKills, watchSandboxQueue } from '../../observability/metrics';
import { cpuMs, overdueDecision } from './cpu-time';
import { TEMPLATE_LIMITS, TemplateError } from './evaluate';
import { createFairQueue } from './fair-queue';
import { machineSandboxSize } from './pool-size';

/**
 * Most wall time a record may go without a sign while the machine keeps its process from the CPU: past it, the
 * process is stopped whatever CPU time it used.
 */
const STARVED_CEILING_MS = 10 * TEMPLATE_LIMITS.hardRecordMs;

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
  /** Whose turn it takes: `organization:ID` or `user:ID` (owner.ts); jobs that name none share one turn. */
  owner?: string;
  /** A later batch of a call already admitted: never refused, so a refusal cannot depend on how many were found. */
  admitted?: boolean;
}

/** The outputs in order, their size as JSON and the milliseconds the child spent on them. */
export interface SandboxResult {
  outputs: Record<string, unknown>[];
  bytes: number;
  ms: number;
}

export interface TemplateSandbox {
  /** Refuses (429, TooManyRequests) a new call of an owner whose queue is full. */
  admit(owner?: string): void;
  /** Evaluates a job in its owner's turn; refused as by `admit` unless `job.admitted`. */
  run(job: SandboxJob): Promise<SandboxResult>;
  /** Ends every process; jobs not finished fail, and so does any later run (503). */
  close(): Promise<void>;
}

/**
 * Events for tests and operators: spawn, ready, queue and dispatch (with the job's owner), refuse (an owner past its
 * bound), stop (killed, with its reason), exit.
 */
export const SANDBOX_CHANNEL = diagnostics.channel('tessera:template-sandbox');

export const SANDBOX_MESSAGES = {
  stopped: `it ran longer than ${TEMPLATE_LIMITS.hardRecordMs} ms on one record and was stopped.`,
  memory: `it needed more than ${TEMPLATE_LIMITS.heapMb} MB of memory, the limit of a template.`,
  ended: (how: string) => `the process evaluating it ended (${how}).`,
  unavailable: 'Templates cannot be evaluated just now; please retry shortly.',
  closed: 'The server is shutting down; please retry.',
  busy: (seconds: number) =>
    `Too many of your templated calls are already waiting to be evaluated; please retry in ${seconds} s.`,
} as const;

export const SANDBOX_FAIRNESS = {
  /**
   * Jobs one owner may have waiting, one per call in progress (a call's batches go one after another): beyond, a
   * new call would only wait longer, holding its request and records meanwhile.
   */
  queuePerOwner: 64,
  /** The longest Retry-After told: the estimate past a minute is noise. */
  maxRetryAfterSeconds: 60,
  /** A job's time before any has been measured: a typical call's few records take milliseconds. */
  firstJobMs: 100,
  /**
   * How long an owner that went idle still keeps others to their share of the processes (fair-queue.ts): a client
   * calling every few seconds finds a process free; the cost to the others is half the pool for that long at most.
   */
  reserveMs: 5000,
} as const;

/** Jobs that name no owner (a preview, a test): one turn for them all, like one more organization's. */
const UNOWNED = 'unowned';

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
  owner: string;
  job: SandboxJob;
  resolve(result: SandboxResult): void;
  reject(error: Error): void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  running:
    | (Waiting & {
        timer: NodeJS.Timeout;
        signs: number;
        started: number;
        /** When the last sign came (or the job was sent), and the child's CPU time then. */
        signAt: number;
        cpuAtSign: number | null;
      })
    | null;
  /** Why the server is ending it, once it is. */
  stopping: string | null;
  stderr: string;
}

let sandboxes = 0;

export interface SandboxOptions {
  /** Processes: by default the cores but the server's own (pool-size.ts; a cluster's worker gives its share). */
  size?: number;
  /** Jobs one owner may have waiting (SANDBOX_FAIRNESS.queuePerOwner). */
  queuePerOwner?: number;
  /** Told when a process is killed or dies while evaluating, with the reason the call is given. */
  onFault?: (reason: string) => void;
}

export function createTemplateSandbox(options: SandboxOptions = {}): TemplateSandbox {
  const size = options.size ?? machineSandboxSize(1);
  const queuePerOwner = options.queuePerOwner ?? SANDBOX_FAIRNESS.queuePerOwner;
  const sandbox = ++sandboxes;
  const slots = new Set<Slot>();
  const queue = createFairQueue<Waiting>(size, { reserveMs: SANDBOX_FAIRNESS.reserveMs });
  /** Set while an owner's job is held back from an idle process only by another owner's reserve. */
  let wake: NodeJS.Timeout | undefined;
  let nextId = 0;
  let failedStarts = 0;
  let closed = false;
  const unwatch = watchSandboxQueue(() => queue.length);
  /** Wall time of a job from dispatch to its end, a moving average: what Retry-After is estimated from. */
  let jobMs: number = SANDBOX_FAIRNESS.firstJobMs;

  const announce = (event: string, extra: Record<string, unknown>) => {
    if (SANDBOX_CHANNEL.hasSubscribers) SANDBOX_CHANNEL.publish({ event, sandbox, ...extra });
  };
  const publish = (event: string, slot: Slot, extra: Record<string, unknown> = {}) =>
    announce(event, { pid: slot.child.pid, ...extra });

  /**
   * Throws 429 when `owner` has its bound of jobs waiting. Retry-After: the time its waiting jobs take at its share
   * of the pool (the processes split among the owners with work), at the recent job time; a retry sooner would meet
   * the same full queue.
   */
  function admit(owner: string): void {
    const queued = queue.queued(owner);
    if (queued < queuePerOwner) return;
    const drainMs = (queued * jobMs * Math.max(1, queue.owners)) / size;
    const seconds = Math.min(SANDBOX_FAIRNESS.maxRetryAfterSeconds, Math.max(1, Math.ceil(drainMs / 1000)));
    announce('refuse', { owner, queued, retryAfter: seconds });
    throw new TooManyRequests(SANDBOX_MESSAGES.busy(seconds), seconds);
  }

  /** The job on `slot` ended, however: its process and its owner's share are free again. */
  function release(slot: Slot): NonNullable<Slot['running']> | null {
    const running = slot.running;
    if (!running) return null;
    clearTimeout(running.timer);
    slot.running = null;
    queue.finished(running.owner);
    jobMs = 0.8 * jobMs + 0.2 * (performance.now() - running.started);
    return running;
  }

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
      running.signAt = performance.now();
      running.cpuAtSign = cpuMs(slot.child.pid);
      // A fresh full limit (after a starved wait the timer may have been set shorter).
      clearTimeout(running.timer);
      running.timer = setTimeout(() => overdue(slot), TEMPLATE_LIMITS.hardRecordMs);
      return;
    }
    release(slot);
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
      if (slot.running !== running || running.signs !== signs) return;
      // The limit is of CPU time: a child the machine kept waiting has not run past it (decision 0018).
      const now = cpuMs(slot.child.pid);
      const used = now === null || running.cpuAtSign === null ? null : now - running.cpuAtSign;
      const wall = performance.now() - running.signAt;
      const next = overdueDecision(used, wall, TEMPLATE_LIMITS.hardRecordMs, STARVED_CEILING_MS);
      if (next.stop) stop(slot, SANDBOX_MESSAGES.stopped);
      else running.timer = setTimeout(() => overdue(slot), next.ms);
    });
  }

  /** Kills the child; its job, if any, fails with `reason` (a template's fault: 422). */
  function stop(slot: Slot, reason: string): void {
    if (slot.stopping) return;
    slot.stopping = reason;
    publish('stop', slot, { reason });
    if (slot.running) {
      sandboxKills.inc();
      options.onFault?.(reason);
    }
    fail(slot, new TemplateError(reason));
    slot.child.kill('SIGKILL');
  }

  function fail(slot: Slot, error: Error): void {
    release(slot)?.reject(error);
  }

  function exited(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (!slots.delete(slot)) return;
    publish('exit', slot, { code, signal });
    if (slot.running) {
      // It died by itself while evaluating: a heap overflow aborts it (and says so on stderr).
      const outOfMemory = /heap out of memory|Allocation failed/.test(slot.stderr);
      const reason = outOfMemory ? SANDBOX_MESSAGES.memory : SANDBOX_MESSAGES.ended(signal ?? `exit ${code}`);
      sandboxKills.inc(); // it died of the template (its heap, say) while evaluating
      options.onFault?.(reason);
      fail(slot, new TemplateError(reason));
    }
    if (closed) return;
    if (!slot.ready && !slot.stopping && ++failedStarts >= MAX_FAILED_STARTS) {
      // The sandbox cannot start (no memory, a broken install): fail what waits rather than retry for ever.
      for (const waiting of queue.drain()) waiting.reject(new Unavailable(SANDBOX_MESSAGES.unavailable));
      failedStarts = 0;
      holdWhileBusy();
      return;
    }
    if (queue.length > 0 || slots.size < size) spawn();
    pump();
  }

  function pump(): void {
    clearTimeout(wake);
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (!slot.ready || slot.running || slot.stopping) continue;
      const next = queue.take();
      if (!next) {
        // An owner at its share, kept from this idle process for another that was just here: look again once
        // that one's reserve has passed, if nothing else wakes the pool before.
        const held = queue.heldFor();
        if (held !== undefined) wake = setTimeout(pump, held + 1).unref();
        break;
      }
      const timer = setTimeout(() => overdue(slot), TEMPLATE_LIMITS.hardRecordMs);
      const started = performance.now();
      slot.running = { ...next, timer, signs: 0, started, signAt: started, cpuAtSign: cpuMs(slot.child.pid) };
      publish('dispatch', slot, { owner: next.owner, records: next.job.records.length });
      // Whose turn it was is the server's business, not the child's.
      const { owner: _owner, admitted: _admitted, ...job } = next.job;
      slot.child.send({ id: next.id, ...job }, (error) => {
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
    admit(owner = UNOWNED) {
      if (closed) throw new Unavailable(SANDBOX_MESSAGES.closed);
      admit(owner);
    },
    run(job) {
      if (closed) return Promise.reject(new Unavailable(SANDBOX_MESSAGES.closed));
      const owner = job.owner ?? UNOWNED;
      return new Promise<SandboxResult>((resolve, reject) => {
        if (!job.admitted) admit(owner);
        queue.push(owner, { id: ++nextId, owner, job, resolve, reject });
        announce('queue', { owner, queued: queue.queued(owner) });
        while (slots.size < size) spawn();
        pump();
      });
    },
    async close() {
      unwatch();
      closed = true;
      clearTimeout(wake);
      for (const waiting of queue.drain()) waiting.reject(new Unavailable(SANDBOX_MESSAGES.closed));
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
