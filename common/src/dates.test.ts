import { describe, expect, it } from 'vitest';
import { formatDate, formatDay, formatMonth } from './dates';

describe('formatDate (spec §9 default M/D/YY h:mma)', () => {
  it('formats local times with the default format', () => {
    expect(formatDate(new Date(2026, 0, 5, 14, 7))).toBe('1/5/26 2:07pm');
    expect(formatDate(new Date(2031, 10, 23, 0, 30))).toBe('11/23/31 12:30am');
    expect(formatDate(new Date(2026, 6, 4, 12, 0))).toBe('7/4/26 12:00pm');
  });

  it('reads ISO strings and epoch milliseconds', () => {
    const date = new Date(2026, 2, 9, 9, 5, 3);
    expect(formatDate(date.toISOString())).toBe('3/9/26 9:05am');
    expect(formatDate(date.getTime(), 'YYYY-MM-DD HH:mm:ss A')).toBe('2026-03-09 09:05:03 AM');
  });

  it('gives an empty text for a missing or unreadable date', () => {
    expect([formatDate(null), formatDate(undefined), formatDate(''), formatDate('yesterday')]).toEqual([
      '',
      '',
      '',
      '',
    ]);
  });
});

describe('formatDay and formatMonth (decision 0064): days and months in UTC', () => {
  it('shows a day by its date part, in UTC whatever the reader zone', () => {
    expect(formatDay('2026-03-01T00:00:00.000Z')).toBe('3/1/26');
    expect(formatDay('2026-12-31T23:59:59.999Z')).toBe('12/31/26');
    expect(formatDay(Date.UTC(2031, 10, 23))).toBe('11/23/31');
    expect(formatDay(null)).toBe('');
  });

  it('names a month', () => {
    expect(formatMonth('2026-03')).toBe('March 2026');
    expect(formatMonth('2026-12-31T23:00:00Z')).toBe('December 2026');
    expect([formatMonth(''), formatMonth('2026-13'), formatMonth(null)]).toEqual(['', '', '']);
  });

  it('formats in UTC when asked', () => {
    expect(formatDate('2026-01-05T14:07:00Z', 'M/D/YY h:mma', 'utc')).toBe('1/5/26 2:07pm');
    expect(formatDate('2026-01-05T14:07:00Z', 'MMMM D, YYYY', 'utc')).toBe('January 5, 2026');
  });
});
