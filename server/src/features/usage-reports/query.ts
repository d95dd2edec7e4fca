/**
 * The query string of every usage report (issue 16): the range, its time zone, the filters, and for the calls
 * their page. The range defaults to the month up to now (spec §9); times are ISO 8601 with an offset.
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { text } from '@tessera/common/schemas/fields';
import {
  USAGE_CALL_SORTS,
  USAGE_INTERVALS,
  USAGE_LIMITS,
  USAGE_MESSAGES,
  USAGE_METHODS,
  USAGE_METRICS,
  USAGE_PATHS,
  type UsageCallSort,
  type UsageInterval,
  type UsageMetric,
} from '@tessera/common/usage';
import { z } from 'zod';

const DAY = 86_400_000;

/** Times PostgreSQL and every engine here hold: the years 1970 to 9999. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(10_000, 0, 1);
const instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((d) => d.getTime() >= EARLIEST && d.getTime() < LATEST, { message: USAGE_MESSAGES.year });
/** An id as the database stores it: a positive 32-bit integer (anything larger names no one). */
const id = z.coerce.number().int().positive().max(2_147_483_647, { message: USAGE_MESSAGES.noSuchId });

/**
 * Whether the zone is an IANA name both the runtime and PostgreSQL know. The runtime keeps some names PostgreSQL
 * has dropped (US/Pacific-New), so a name is also looked up in PostgreSQL's list once the server has read it
 * (`knowTimeZones`, at start).
 */
let databaseZones: ReadonlySet<string> | null = null;
export function knowTimeZones(names: Iterable<string>): void {
  databaseZones = new Set(names);
}
export function isTimeZone(tz: string): boolean {
  if (databaseZones && !databaseZones.has(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const timeZone = z
  .string()
  .max(64)
  .superRefine((tz, ctx) => {
    if (!isTimeZone(tz)) ctx.addIssue({ code: 'custom', message: USAGE_MESSAGES.timeZone(tz) });
  });

export const reportQuery = z
  .object({
    from: instant.optional(),
    to: instant.optional(),
    interval: z.enum(USAGE_INTERVALS).default('day'),
    metric: z.enum(USAGE_METRICS).default('requests'),
    tz: timeZone.default('UTC'),
    userId: id.optional(),
    organizationId: id.optional(),
    keyId: text().min(1).max(64).optional(),
    method: z.enum(USAGE_METHODS).default('*'),
    path: z.enum(USAGE_PATHS).default('*'),
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => (TABLE_PAGE_SIZES as readonly number[]).includes(n), {
        message: `Page size is one of ${TABLE_PAGE_SIZES.join(', ')}.`,
      })
      .default(100),
    after: text().max(200).optional(),
    sort: z
      .string()
      .refine((s) => (USAGE_CALL_SORTS as readonly string[]).includes(s.replace(/^-/, '')), {
        message: `Sort by one of ${USAGE_CALL_SORTS.join(', ')}, with a leading - for descending.`,
      })
      .default('-at'),
  })
  .strict();

export type ReportQueryInput = z.infer<typeof reportQuery>;

/** A report's query with its range settled. */
export interface ReportQuery {
  from: Date;
  to: Date;
  interval: UsageInterval;
  metric: UsageMetric;
  tz: string;
  userId?: number;
  organizationId?: number;
  keyId?: string;
  method: string;
  path: string;
  pageSize: number;
  after?: string;
  sort: { field: UsageCallSort; descending: boolean };
}

const INTERVAL_MS: Record<UsageInterval, number> = { hour: 3_600_000, day: DAY, week: 7 * DAY, month: 28 * DAY };

function monthBefore(date: Date): Date {
  const out = new Date(date);
  out.setUTCMonth(out.getUTCMonth() - 1);
  return out;
}

/** Settles the range (default: the month up to now) and checks it; the issues name the query parameter. */
export function settle(input: ReportQueryInput, now = new Date()): ReportQuery | { path: string; message: string } {
  const to = input.to ?? now;
  const from = input.from ?? monthBefore(to);
  if (to <= from) return { path: 'querystring.to', message: USAGE_MESSAGES.toBeforeFrom };
  if (to.getTime() - from.getTime() > USAGE_LIMITS.maxRangeDays * DAY) {
    return { path: 'querystring.from', message: USAGE_MESSAGES.rangeTooLong };
  }
  const points = Math.ceil((to.getTime() - from.getTime()) / INTERVAL_MS[input.interval]);
  if (points > USAGE_LIMITS.maxPoints) {
    return { path: 'querystring.interval', message: USAGE_MESSAGES.tooManyPoints(points) };
  }
  const descending = input.sort.startsWith('-');
  return {
    ...input,
    from,
    to,
    sort: { field: input.sort.replace(/^-/, '') as UsageCallSort, descending },
  };
}
