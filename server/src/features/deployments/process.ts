/**
 * One deploy command run for one host: no shell, its own process group (so a script's children die with it),
 * output kept to its last TASK_OUTPUT_MAX_BYTES, `::progress N` lines read as progress, and a stop that sends
 * SIGTERM and, after the grace period, SIGKILL.
 */
import { spawn } from 'node:child_process';
import { TASK_OUTPUT_MAX_BYTES } from '@tessera/common/deployments';

export interface CommandRun {
  /** Resolves with the exit code (null when killed by a signal) once the process and its output have ended. */
  done: Promise<{ code: number | null; error: string | null }>;
  /** SIGTERM now, SIGKILL after `graceMs` unless it has exited. */
  stop(graceMs: number): void;
}

/** Keeps the last `max` bytes of a text. */
export function tail(text: string, max = TASK_OUTPUT_MAX_BYTES): string {
  const bytes = Buffer.from(text);
  return bytes.length <= max ? text : bytes.subarray(bytes.length - max).toString('utf8');
}

const PROGRESS = /^::progress (\d{1,3})\s*$/gm;

/** The last progress a chunk of output reports, if any (0 to 100). */
export function progressIn(text: string): number | null {
  let last: number | null = null;
  for (const match of text.matchAll(PROGRESS)) last = Math.min(100, Number(match[1]));
  return last;
}

/** A small environment for commands: the server's own settings (database URL, keys) are not handed on. */
function commandEnv(): NodeJS.ProcessEnv {
  const { PATH, HOME, LANG, TZ } = process.env;
  return Object.fromEntries(Object.entries({ PATH, HOME, LANG, TZ }).filter(([, v]) => v !== undefined));
}

export function runCommand(argv: string[], onOutput: (text: string) => void): CommandRun {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, {
    shell: false,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: commandEnv(),
  });
  let exited = false;
  let killTimer: NodeJS.Timeout | undefined;
  const signal = (name: NodeJS.Signals) => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  child.stdout.on('data', (d: Buffer) => onOutput(d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => onOutput(d.toString('utf8')));
  const done = new Promise<{ code: number | null; error: string | null }>((resolve) => {
    child.on('error', (error) => {
      exited = true;
      clearTimeout(killTimer);
      resolve({ code: null, error: error.message });
    });
    child.on('close', (code) => {
      exited = true;
      clearTimeout(killTimer);
      resolve({ code, error: null });
    });
  });
  return {
    done,
    stop(graceMs) {
      if (exited || killTimer) return;
      signal('SIGTERM');
      killTimer = setTimeout(() => signal('SIGKILL'), graceMs);
      killTimer.unref();
    },
  };
}
