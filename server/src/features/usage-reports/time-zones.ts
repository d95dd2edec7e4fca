/** The UTC offsets a time zone has over a range, read from the runtime's zone data (the same IANA names as SQL). */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in `tz` at `at`. */
export function offsetMinutes(tz: string, at: Date): number {
  let format = formatters.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' });
    formatters.set(tz, format);
  }
  const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The offsets seen at the range's ends and every six hours between (zones change at most a few times a year). */
export function offsetsOver(tz: string, from: Date, to: Date): Set<number> {
  const out = new Set<number>([offsetMinutes(tz, from), offsetMinutes(tz, to)]);
  for (let t = from.getTime(); t < to.getTime(); t += 6 * 3_600_000) out.add(offsetMinutes(tz, new Date(t)));
  return out;
}
