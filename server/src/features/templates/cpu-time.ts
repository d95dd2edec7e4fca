/**
 * A process's CPU time, for the sandbox's hard limit (decision 0018): a record is stopped for running past the limit
 * on the CPU, not for waiting past it on a machine too busy to run it. Read from /proc (Linux); null elsewhere, where
 * the limit stays one of wall time.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times: 100 on every Linux build Node runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** User and system CPU time `pid` has used, in ms; null when it cannot be read. */
export function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state is the first field; utime and stime are the 12th and 13th (14 and 15 in proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * What the hard limit does when it fires after `wallMs` without a sign: 'stop', or wait `ms` more because the
 * process used only `usedMs` of CPU meanwhile (it was kept waiting, not stuck). Never waits past `ceilingMs` of wall
 * time since the last sign, so a process starved for ever is still stopped.
 */
export function overdueDecision(
  usedMs: number | null,
  wallMs: number,
  limitMs: number,
  ceilingMs: number,
): { stop: true } | { stop: false; ms: number } {
  if (usedMs === null || usedMs >= limitMs || wallMs >= ceilingMs) return { stop: true };
  return { stop: false, ms: Math.max(50, Math.min(limitMs - usedMs, ceilingMs - wallMs)) };
}
