/** Spec §9 default date format 'M/D/YY h:mma', for every date the console shows. */
import { DATE_FORMAT } from './constants';

const TOKENS = /YYYY|YY|MM|M|DD|D|HH|H|hh|h|mm|ss|a|A/g;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a date (ISO string, epoch milliseconds or Date) in local time with moment-style tokens: YYYY, YY, M,
 * MM, D, DD, H, HH, h, hh, mm, ss, a (am/pm) and A (AM/PM). An unreadable date gives ''.
 */
export function formatDate(value: string | number | Date | null | undefined, format: string = DATE_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const hours = date.getHours();
  const twelve = hours % 12 || 12;
  const parts: Record<string, string> = {
    YYYY: String(date.getFullYear()),
    YY: pad(date.getFullYear() % 100),
    MM: pad(date.getMonth() + 1),
    M: String(date.getMonth() + 1),
    DD: pad(date.getDate()),
    D: String(date.getDate()),
    HH: pad(hours),
    H: String(hours),
    hh: pad(twelve),
    h: String(twelve),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
    a: hours < 12 ? 'am' : 'pm',
    A: hours < 12 ? 'AM' : 'PM',
  };
  return format.replace(TOKENS, (token) => parts[token] ?? token);
}
