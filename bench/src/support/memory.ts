/** Resident memory of a server child process, as the benches sample it. */

import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of the server: the tsx wrapper's node child and everything under it. */
export function serverRssMb(server: { proc: ChildProcess }): number {
  const pids: number[] = [];
  const walk = (pid: number) => {
    pids.push(pid);
    for (const task of safeList(`/proc/${pid}/task`)) {
      const children = safeRead(`/proc/${pid}/task/${task}/children`).trim();
      for (const child of children ? children.split(/\s+/).map(Number) : []) walk(child);
    }
  };
  walk(server.proc.pid!);
  let kb = 0;
  for (const pid of pids) kb += Number(/VmRSS:\s+(\d+)/.exec(safeRead(`/proc/${pid}/status`))?.[1] ?? 0);
  return Math.round(kb / 1024);
}
function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
function safeList(dir: string): string[] {
  try {
    // Read directly: spawning `ls` for each process blocked this process's event loop for tens of ms a sample.
    return readdirSync(dir);
  } catch {
    return [];
  }
}
