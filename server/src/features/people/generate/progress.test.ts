import { describe, expect, it } from 'vitest';
import { bytes, createProgress, duration, thousands } from './progress';

const sink = (isTTY: boolean, columns = 160) => {
  const writes: string[] = [];
  return { isTTY, columns, writes, write: (t: string) => writes.push(t) };
};

describe('progress display', () => {
  it('redraws one bar in place on a terminal, at most every 100 ms, with count, rate and time left', () => {
    const out = sink(true);
    let t = 0;
    const p = createProgress('Generating', 1000, { out, now: () => t });
    for (let done = 0; done <= 1000; done += 10) {
      t += 20;
      p.update(done);
    }
    p.finish();
    expect(out.writes.length).toBeLessThan(30);
    expect(out.writes.every((w) => w.startsWith('\r') || w === '\n')).toBe(true);
    expect(out.writes[5]).toMatch(/^\rGenerating \[#+-+\] \d+% [\d,]+\/1,000 [\d,]+\/s \d+:\d\d left/);
    expect(out.writes[5]!.endsWith('\u001b[K')).toBe(true); // the rest of the old line erased
    expect(out.writes.at(-2)).toMatch(/Generating \[#+\] 100% 1,000\/1,000 [\d,]+\/s 0:00 left/);
    expect(out.writes.at(-1)).toBe('\n');
  });

  it('never draws a bar wider than the terminal, which would wrap instead of redrawing', () => {
    const out = sink(true, 60);
    const p = createProgress('Importing', 123_456_789, { out, unit: 'bytes', now: () => 1000 });
    p.update(1_000_000, '12,345 rows, 2 refused');
    expect(out.writes[0]!.replace('\r', '').replace('\u001b[K', '').length).toBeLessThanOrEqual(59);
  });

  it('writes a plain line at each tenth elsewhere, with the rate and the time left', () => {
    const out = sink(false);
    let t = 0;
    const p = createProgress('Generating', 200, { out, now: () => t });
    for (let done = 1; done <= 200; done++) {
      t += 10; // 100 a second
      p.update(done);
    }
    t = 2500;
    p.finish();
    expect(out.writes).toEqual([
      ...[10, 20, 30, 40, 50, 60, 70, 80, 90].map(
        (n) => `Generating: ${n}% (${n * 2}/200), 100/s, ${duration((200 - n * 2) / 100)} left\n`,
      ),
      'Generating: 100% (200/200) in 2.5 s, 80/s\n',
    ]);
  });

  it('off a terminal, also writes a line when a tenth takes longer than plainEverySeconds', () => {
    const out = sink(false);
    let t = 0;
    const p = createProgress('Importing', 1000, { out, now: () => t, plainEverySeconds: 30 });
    for (const [seconds, done] of [
      [10, 10],
      [31, 20],
      [45, 30],
      [62, 40],
    ] as const) {
      t = seconds * 1000;
      p.update(done);
    }
    expect(out.writes).toEqual([
      'Importing: 2% (20/1,000), 1/s, 25:19 left\n',
      'Importing: 4% (40/1,000), 1/s, 24:48 left\n',
    ]);
  });

  it('shows bytes in a readable unit, and a detail such as rows read after the figures', () => {
    const out = sink(false);
    let t = 0;
    const p = createProgress('Importing', 50_000_000, { out, now: () => t, unit: 'bytes' });
    t = 2000;
    p.update(10_000_000, '30,000 rows');
    t = 10_000;
    p.update(50_000_000, '150,000 rows, 3 refused');
    p.finish();
    expect(out.writes).toEqual([
      'Importing: 20% (10.0/50.0 MB), 5.0 MB/s, 0:08 left, 30,000 rows\n',
      'Importing: 100% (50.0/50.0 MB) in 10.0 s, 5.0 MB/s, 150,000 rows, 3 refused\n',
    ]);
  });

  it('formats numbers, sizes and durations without the locale', () => {
    expect(thousands(0)).toBe('0');
    expect(thousands(999)).toBe('999');
    expect(thousands(5_000_000)).toBe('5,000,000');
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1_536)).toBe('1.5 kB');
    expect(bytes(2_500_000_000)).toBe('2.5 GB');
    expect(duration(59)).toBe('0:59');
    expect(duration(3_725)).toBe('1:02:05');
    expect(duration(Number.POSITIVE_INFINITY)).toBe('?');
  });
});
