import { describe, expect, it } from 'vitest';
import { formatMicros, formatMoney, microsOfAmount } from './money';

describe('formatMoney (decision 0064): dollars, at least two places, up to six, exact', () => {
  it('keeps cents, and places beyond the cent only when they are not zero', () => {
    expect(formatMoney('12.340000')).toBe('$12.34');
    expect(formatMoney('0.000000')).toBe('$0.00');
    expect(formatMoney('0.012500')).toBe('$0.0125');
    expect(formatMoney('0.000123')).toBe('$0.000123');
    expect(formatMoney('3')).toBe('$3.00');
    expect(formatMoney('0.5')).toBe('$0.50');
  });

  it('separates thousands with commas and puts a minus before the sign', () => {
    expect(formatMoney('1234567.891000')).toBe('$1,234,567.891');
    expect(formatMoney('1000')).toBe('$1,000.00');
    expect(formatMoney('999.99')).toBe('$999.99');
    expect(formatMoney('-1234.5')).toBe('-$1,234.50');
    expect(formatMoney('-0.000000')).toBe('$0.00');
  });

  it('reads numbers to the nearest millionth, so float sums print as the amount they stand for', () => {
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
    expect(formatMoney(12.34)).toBe('$12.34');
    expect(formatMoney(0.0005)).toBe('$0.0005');
    expect(formatMoney(1_000_000)).toBe('$1,000,000.00');
    expect(formatMoney(-2)).toBe('-$2.00');
  });

  it('rounds text beyond six places half up, exactly', () => {
    expect(microsOfAmount('0.0000005')).toBe(1n);
    expect(microsOfAmount('0.0000004')).toBe(0n);
    expect(formatMoney('99999999999999.9999995')).toBe('$100,000,000,000,000.00');
  });

  it('gives an empty text for nothing and for what is not an amount', () => {
    expect([
      formatMoney(null),
      formatMoney(undefined),
      formatMoney('abc'),
      formatMoney('1e3'),
      formatMoney(NaN),
    ]).toEqual(['', '', '', '', '']);
  });

  it('formats integer millionths', () => {
    expect(formatMicros(1_234_500_000n)).toBe('$1,234.50');
    expect(formatMicros(-5n)).toBe('-$0.000005');
  });
});
