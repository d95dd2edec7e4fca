/**
 * Dates in the generated graph are whole days counted from 2000-01-01 up to a fixed "as of" day, never the
 * clock, so a graph generated next year is the same file.
 */
import type { Rng } from './prng';

/** The last day the generated data knows about. */
export const AS_OF = '2026-09-30';
export const AS_OF_YEAR = 2026;

const EPOCH = Date.UTC(2000, 0, 1);
const DAY = 86_400_000;

/** Days from 2000-01-01 to the as-of day. */
export const LAST_DAY = (Date.parse(`${AS_OF}T00:00:00Z`) - EPOCH) / DAY;

const ISO: string[] = Array.from({ length: LAST_DAY + 1 }, (_, d) =>
  new Date(EPOCH + d * DAY).toISOString().slice(0, 10),
);

/** YYYY-MM-DD for a day number (clamped to the known range). */
export function isoDay(day: number): string {
  return ISO[Math.max(0, Math.min(LAST_DAY, day))]!;
}

/** The day number of 1 January of a year. */
export function dayOfYear(year: number): number {
  return Math.max(0, Math.round((Date.UTC(year, 0, 1) - EPOCH) / DAY));
}

/** A time span in day numbers. */
export interface Span {
  first: number;
  last: number;
}

/**
 * A span inside an outer one: starts anywhere in it, and usually (recentShare) lasts until the outer span's end,
 * as most linked records are still current.
 */
export function innerSpan(rng: Rng, outer: Span, recentShare = 0.6): Span {
  const first = rng.between(outer.first, outer.last);
  const last = rng.chance(recentShare) ? outer.last : rng.between(first, outer.last);
  return { first, last };
}

export const seen = (span: Span) => ({ firstSeen: isoDay(span.first), lastSeen: isoDay(span.last) });
