/** The sandbox's hard limit reads CPU time (decision 0018): what it reads, and what it decides from it. */
import { describe, expect, it } from 'vitest';
import { cpuMs, overdueDecision } from './cpu-time';

describe('CPU time', () => {
  it.runIf(process.platform === 'linux')('reads a process’s CPU time as the process itself counts it', () => {
    const own = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    // Work until the process has used 100 ms more of CPU, however busy the machine: /proc says the same, to its
    // 10 ms ticks.
    const start = own();
    while (own() - start < 100);
    const read = cpuMs(process.pid)!;
    const counted = own();
    expect(read).toBeGreaterThan(counted - 30);
    expect(read).toBeLessThanOrEqual(counted + 1);
  });

  it('is null for a process that is not there', () => {
    expect(cpuMs(2 ** 30)).toBeNull();
    expect(cpuMs(undefined)).toBeNull();
  });

  it('stops a process that used the limit, could not be read, or waited past the ceiling; else waits for the rest', () => {
    expect(overdueDecision(1500, 1500, 1500, 15_000)).toEqual({ stop: true });
    expect(overdueDecision(null, 1500, 1500, 15_000)).toEqual({ stop: true });
    expect(overdueDecision(100, 15_000, 1500, 15_000)).toEqual({ stop: true });
    expect(overdueDecision(400, 1500, 1500, 15_000)).toEqual({ stop: false, ms: 1100 });
    expect(overdueDecision(1490, 1500, 1500, 15_000)).toEqual({ stop: false, ms: 50 });
    expect(overdueDecision(0, 14_900, 1500, 15_000)).toEqual({ stop: false, ms: 100 });
  });
});
