/**
 * A progress display on stderr: a redrawn bar with rate and time left on a terminal, otherwise (a log file, a
 * pipe) one plain line at every tenth of the way.
 */

export interface Progress {
  /** `done` of `total` finished. */
  update(done: number): void;
  finish(): void;
}

interface Output {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** 1234567 → "1,234,567" (not locale-dependent). */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function createProgress(
  label: string,
  total: number,
  out: Output = process.stderr,
  now: () => number = () => performance.now(),
): Progress {
  const started = now();
  let lastDraw = -Infinity;
  let lastTenth = 0;
  let done = 0;

  const bar = (n: number) => {
    const fraction = total === 0 ? 1 : n / total;
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? n / seconds : 0;
    const left = rate > 0 ? (total - n) / rate : Number.POSITIVE_INFINITY;
    const width = Math.max(10, Math.min(40, (out.columns ?? 80) - 70));
    const filled = Math.round(fraction * width);
    const text = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)}% ${thousands(n)}/${thousands(total)} ${thousands(rate)}/s ${duration(left)} left`;
    out.write(`\r${text}\u001b[K`);
  };

  return {
    update(n) {
      done = n;
      if (out.isTTY) {
        const t = now();
        if (t - lastDraw >= 100) {
          lastDraw = t;
          bar(n);
        }
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((n * 10) / total);
      if (tenth > lastTenth && tenth < 10) {
        lastTenth = tenth;
        out.write(`${label}: ${tenth * 10}% (${thousands(n)}/${thousands(total)})\n`);
      }
    },
    finish() {
      const seconds = (now() - started) / 1000;
      if (out.isTTY) {
        bar(done);
        out.write('\n');
      } else {
        out.write(`${label}: 100% (${thousands(done)}/${thousands(total)}) in ${seconds.toFixed(1)} s\n`);
      }
    },
  };
}
