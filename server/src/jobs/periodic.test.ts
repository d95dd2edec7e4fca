import { describe, expect, it } from 'vitest';
import { periodicJob } from './periodic';

/** A run that waits until let go, so a test decides when it ends. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('periodicJob', () => {
  it('joins a run under way rather than starting a second one', async () => {
    const g = gate();
    let runs = 0;
    const job = periodicJob({
      name: 'test job',
      run: async () => {
        runs++;
        await g.opened;
        return runs;
      },
    });
    const a = job.runOnce();
    const b = job.runOnce();
    g.open();
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    expect(await job.runOnce()).toBe(2);
  });

  it('logs a failed run by its code only, and runs again at the next tick', async () => {
    const warnings: unknown[][] = [];
    let runs = 0;
    const job = periodicJob({
      name: 'test job',
      run: async () => {
        runs++;
        if (runs === 1) throw Object.assign(new Error('row 42 of secret@example.com'), { code: '57014' });
        return runs;
      },
      logger: { warn: (...args: unknown[]) => warnings.push(args) },
    });
    job.start(5);
    await expect.poll(() => runs).toBeGreaterThanOrEqual(2);
    await job.stop();
    expect(warnings[0]).toEqual([{ code: '57014' }, 'test job failed']);
    expect(JSON.stringify(warnings)).not.toContain('secret@example.com');
  });

  it('stop tells the run under way to end, waits for it, and a later run runs whole', async () => {
    const g = gate();
    const seen: boolean[] = [];
    const job = periodicJob({
      name: 'test job',
      run: async (stopping) => {
        await g.opened;
        seen.push(stopping());
      },
    });
    job.start(60_000);
    const stopped = job.stop();
    g.open();
    await stopped;
    await job.runOnce();
    expect(seen).toEqual([true, false]);
  });
});
