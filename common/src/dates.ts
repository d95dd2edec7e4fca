/**
 * The one date format of the console, the invoice PDF and CSV, and the server's messages (spec §9, decision 0064):
 * a moment in time as the default 'M/D/YY h:mma' in the reader's time zone; a day (a contract's term, an invoice's
 * issue and due dates: days counted in UTC) as its date part 'M/D/YY'; a calendar month as 'MMMM YYYY'.
 */
import { DATE_FORMAT } from './constants';

/** The date part of spec §9's default format, for values that name a day rather than a moment. */
export const DAY_FORMAT = 'M/D/YY';
/** A calendar month, e.g. March 2026 (an invoice's month, a spend's month). */
export const MONTH_FORMAT = 'MMMM YYYY';

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const TOKENS = /YYYY|YY|MMMM|MM|M|DD|D|HH|H|hh|h|mm|ss|a|A/g;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a date (ISO string, epoch milliseconds or Date) with moment-style tokens: YYYY, YY, MMMM (month name),
 * M, MM, D, DD, H, HH, h, hh, mm, ss, a (am/pm) and A (AM/PM), in local time or in UTC. An unreadable date gives ''.
 */
export function formatDate(
  value: string | number | Date | null | undefined,
  format: string = DATE_FORMAT,
  zone: 'local' | 'utc' = 'local',
): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const utc = zone === 'utc';
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const month = utc ? date.getUTCMonth() : date.getMonth();
  const day = utc ? date.getUTCDate() : date.getDate();
  const hours = utc ? date.getUTCHours() : date.getHours();
  const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
  const seconds = utc ? date.getUTCSeconds() : date.getSeconds();
  const twelve = hours % 12 || 12;
  const parts: Record<string, string> = {
    YYYY: String(year),
    YY: pad(year % 100),
    MMMM: MONTH_NAMES[month]!,
    MM: pad(month + 1),
    M: String(month + 1),
    DD: pad(day),
    D: String(day),
    HH: pad(hours),
    H: String(hours),
    hh: pad(twelve),
    h: String(twelve),
    mm: pad(minutes),
    ss: pad(seconds),
    a: hours < 12 ? 'am' : 'pm',
    A: hours < 12 ? 'AM' : 'PM',
  };
  return format.replace(TOKENS, (token) => parts[token] ?? token);
}

/** A day in UTC (contract terms start and end at 00:00 UTC; invoices are dated in UTC) as 'M/D/YY'. */
export const formatDay = (value: string | number | Date | null | undefined) => formatDate(value, DAY_FORMAT, 'utc');

/** A calendar month given as 'YYYY-MM' (or any time in it, UTC) as 'March 2026'; '' when unreadable. */
export function formatMonth(month: string | null | undefined): string {
  if (!month) return '';
  return formatDate(/^\d{4}-\d{2}$/.test(month) ? `${month}-01T00:00:00Z` : month, MONTH_FORMAT, 'utc');
}
