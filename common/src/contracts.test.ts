import { describe, expect, it } from 'vitest';
import {
  CONTRACT_MESSAGES,
  contractInForce,
  dollarsOf,
  limitProblem,
  microsOf,
  priceProblem,
  rateLimitProblem,
} from './contracts';
import { MESSAGES } from './validation';

describe('contract amounts', () => {
  it('checks prices and limits as typed: the §5 number rule, then range and decimals', () => {
    expect(priceProblem('0.000123')).toBeUndefined();
    expect(priceProblem('1000000')).toBeUndefined();
    expect(priceProblem('1000000.000000')).toBeUndefined();
    expect(priceProblem('1000000.000001')).toBe(CONTRACT_MESSAGES.price);
    expect(priceProblem('0.0000001')).toBe(CONTRACT_MESSAGES.price);
    expect(priceProblem('0.1000000')).toBeUndefined(); // trailing zeros are not decimals
    for (const bad of ['', '-1', '1e3', '1,5', '.5', 'ten']) expect(priceProblem(bad), bad).toBe(MESSAGES.number);
    expect(limitProblem('10.5')).toBeUndefined();
    expect(limitProblem('10.001')).toBe(CONTRACT_MESSAGES.limit);
    expect(rateLimitProblem('1.5')).toBe(MESSAGES.integer);
    expect(rateLimitProblem('0')).toBe(CONTRACT_MESSAGES.rateLimit);
    expect(rateLimitProblem('10000000')).toBeUndefined();
  });

  it('counts in exact millionths and shows dollars without float drift', () => {
    expect(microsOf('0.1') + microsOf('0.2')).toBe(microsOf('0.3'));
    expect(microsOf('1000.50')).toBe(1_000_500_000n);
    expect(dollarsOf(microsOf('1234567.891'))).toBe('$1,234,567.891');
    expect(dollarsOf(microsOf('0.005'))).toBe('$0.005');
    expect(dollarsOf(microsOf('0.000123'))).toBe('$0.000123');
    expect(dollarsOf(microsOf('2'))).toBe('$2.00');
  });
});

describe('contractInForce', () => {
  const c = (id: number, startsAt: string, extra: object = {}) => ({
    id,
    startsAt,
    endsAt: '2030-01-01T00:00:00Z',
    status: 'active' as const,
    ...extra,
  });
  const now = Date.parse('2026-06-01T00:00:00Z');
  it('is the latest started one, when active and not ended, as the 402 check chooses', () => {
    expect(contractInForce([c(1, '2025-01-01T00:00:00Z'), c(2, '2026-01-01T00:00:00Z')], now)?.id).toBe(2);
    expect(contractInForce([c(1, '2025-01-01T00:00:00Z'), c(2, '2027-01-01T00:00:00Z')], now)?.id).toBe(1);
    expect(contractInForce([c(1, '2025-01-01T00:00:00Z', { status: 'suspended' })], now)).toBeNull();
    expect(contractInForce([c(1, '2025-01-01T00:00:00Z', { endsAt: '2026-01-01T00:00:00Z' })], now)).toBeNull();
  });
  it('takes the higher id of two started at the same moment, as the server orders them', () => {
    expect(contractInForce([c(3, '2026-01-01T00:00:00Z'), c(7, '2026-01-01T00:00:00Z')], now)?.id).toBe(7);
    expect(contractInForce([c(7, '2026-01-01T00:00:00Z'), c(3, '2026-01-01T00:00:00Z')], now)?.id).toBe(7);
  });
});
