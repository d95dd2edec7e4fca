/**
 * A progress display on stderr, with the amount done, the rate and the time left: a bar redrawn in place on a
 * terminal, otherwise (a log file, a pipe) one plain line at every tenth of the way, and at least every
 * `plainEverySeconds` on a long run, so a log shows the job is alive.
 */

export interface Progress {
  /** `done` of `total` finished; `detail` (e.g. "45,000 rows") is shown after the figures. */
  update(done: number, detail?: string): void;
  finish(): void;
}

interface Output {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressOptions {
  out?: Output;
  now?: () => number;
  /** What is counted: items (the default, shown as 1,234) or bytes (shown in kB, MB or GB). */
  unit?: 'items' | 'bytes';
  /** Off a terminal: the longest time between two plain lines (default 30 s). */
  plainEverySeconds?: number;
}

/** 1234567 → "1,234,567" (not locale-dependent). */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Seconds as m:ss, or h:mm:ss from an hour on; "?" when not known yet. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  const [h, m] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60)];
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(s % 60).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

const BYTE_UNITS = [
  [1e9, 'GB'],
  [1e6, 'MB'],
  [1e3, 'kB'],
] as const;

function byteScale(n: number): readonly [number, string] {
  return BYTE_UNITS.find(([size]) => n >= size) ?? [1, 'B'];
}

/** 12_345_678 → "12.3 MB". */
export function bytes(n: number): string {
  const [size, name] = byteScale(n);
  return size === 1 ? `${Math.round(n)} B` : `${(n / size).toFixed(1)} ${name}`;
}

export function createProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const { out = process.stderr, now = () => performance.now(), unit = 'items', plainEverySeconds = 30 } = options;
  const started = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastLine = started;
  let lastTenth = 0;
  let done = 0;
  let detail: string | undefined;

  /** "4,500/10,000", or in bytes "12.3/27.5 MB" (both in the total's unit). */
  const amount = (n: number) => {
    if (unit === 'items') return `${thousands(n)}/${thousands(total)}`;
    const [size, name] = byteScale(total);
    return size === 1 ? `${n}/${total} B` : `${(n / size).toFixed(1)}/${(total / size).toFixed(1)} ${name}`;
  };
  const perSecond = (rate: number) => (unit === 'items' ? `${thousands(rate)}/s` : `${bytes(rate)}/s`);
  const figures = (n: number) => {
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? n / seconds : 0;
    const left = rate > 0 ? (total - n) / rate : Number.POSITIVE_INFINITY;
    return { fraction: total === 0 ? 1 : n / total, seconds, rate, left };
  };
  const tail = () => (detail ? `, ${detail}` : '');

  const bar = (n: number) => {
    const { fraction, rate, left } = figures(n);
    const columns = out.columns ?? 80;
    const width = Math.max(10, Math.min(40, columns - 80));
    const filled = Math.round(fraction * width);
    const text = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)}% ${amount(n)} ${perSecond(rate)} ${duration(left)} left${tail()}`;
    // Cut to the terminal's width: a line that wraps would not be redrawn in place.
    out.write(`\r${text.slice(0, columns - 1)}\u001b[K`);
  };
  const line = (percent: number, n: number) => {
    const { rate, left } = figures(n);
    out.write(`${label}: ${percent}% (${amount(n)}), ${perSecond(rate)}, ${duration(left)} left${tail()}\n`);
  };

  return {
    update(n, text) {
      done = n;
      detail = text ?? detail;
      const t = now();
      if (out.isTTY) {
        if (t - lastDraw >= 100) {
          lastDraw = t;
          bar(n);
        }
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((n * 10) / total);
      const due = tenth > lastTenth || t - lastLine >= plainEverySeconds * 1000;
      if (due && n < total) {
        lastTenth = Math.max(lastTenth, tenth);
        lastLine = t;
        line(Math.floor(total === 0 ? 100 : (n * 100) / total), n);
      }
    },
    finish() {
      if (out.isTTY) {
        bar(done);
        out.write('\n');
        return;
      }
      const { seconds, rate } = figures(done);
      out.write(`${label}: 100% (${amount(done)}) in ${seconds.toFixed(1)} s, ${perSecond(rate)}${tail()}\n`);
    },
  };
}
