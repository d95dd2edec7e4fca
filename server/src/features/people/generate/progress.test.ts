import { describe, expect, it } from 'vitest';
import { createProgress, thousands } from './progress';

const sink = (isTTY: boolean) => {
  const writes: string[] = [];
  return { isTTY, columns: 120, writes, write: (t: string) => writes.push(t) };
};

describe('progress display', () => {
  it('redraws one bar in place on a terminal, at most every 100 ms', () => {
    const out = sink(true);
    let t = 0;
    const p = createProgress('Generating', 1000, out, () => t);
    for (let done = 0; done <= 1000; done += 10) {
      t += 20;
      p.update(done);
    }
    p.finish();
    expect(out.writes.length).toBeLessThan(30);
    expect(out.writes.every((w) => w.startsWith('\r') || w === '\n')).toBe(true);
    expect(out.writes.at(-2)).toMatch(/Generating \[#+\] 100% 1,000\/1,000 /);
    expect(out.writes.at(-1)).toBe('\n');
  });

  it('writes a plain line at each tenth elsewhere', () => {
    const out = sink(false);
    let t = 0;
    const p = createProgress('Generating', 200, out, () => t);
    for (let done = 1; done <= 200; done++) p.update(done);
    t = 2500;
    p.finish();
    expect(out.writes).toEqual([
      ...[10, 20, 30, 40, 50, 60, 70, 80, 90].map((n) => `Generating: ${n}% (${n * 2}/200)\n`),
      'Generating: 100% (200/200) in 2.5 s\n',
    ]);
  });

  it('groups thousands without the locale', () => {
    expect(thousands(0)).toBe('0');
    expect(thousands(999)).toBe('999');
    expect(thousands(5_000_000)).toBe('5,000,000');
  });
});
