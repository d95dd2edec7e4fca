import { describe, expect, it } from 'vitest';
import { readNotice } from './alerts';
import {
  isMultiple,
  parseThresholds,
  thresholdsProblem,
  USAGE_ALERT_MESSAGES,
  type UsageAlertFiring,
  usageAlertOf,
} from './usage-alerts';

const firing = (over: Partial<UsageAlertFiring>): UsageAlertFiring => ({
  id: 1,
  organizationId: 3,
  kind: 'threshold',
  share: 80,
  period: '2026-11',
  firedAt: '2026-11-20T10:00:00Z',
  spent: 8000,
  monthlyLimit: 10000,
  requests: null,
  average: null,
  multiple: null,
  ...over,
});

describe('usage alert rules', () => {
  it('read shares as typed, sorted, or say what is wrong', () => {
    expect(parseThresholds('100, 80')).toEqual([80, 100]);
    expect(parseThresholds(' 50 75%;90 ')).toEqual([50, 75, 90]);
    expect(parseThresholds('')).toEqual({ message: USAGE_ALERT_MESSAGES.thresholds });
    expect(parseThresholds('0')).toEqual({ message: USAGE_ALERT_MESSAGES.thresholds });
    expect(parseThresholds('101')).toEqual({ message: USAGE_ALERT_MESSAGES.thresholds });
    expect(parseThresholds('50.5')).toEqual({ message: USAGE_ALERT_MESSAGES.thresholds });
    expect(parseThresholds('1, 2, 3, 4, 5, 6')).toEqual({ message: USAGE_ALERT_MESSAGES.thresholds });
    expect(parseThresholds('80, 80')).toEqual({ message: USAGE_ALERT_MESSAGES.thresholdsRepeated });
    expect(thresholdsProblem([1, 100])).toBeNull();
  });

  it('take multiples from 1.5 to 100 with at most two decimals', () => {
    expect([1.5, 3, 2.25, 100].every(isMultiple)).toBe(true);
    expect([1.49, 100.01, 2.555, Number.NaN, Number.POSITIVE_INFINITY].some(isMultiple)).toBe(false);
  });

  it('word each alert for the console and the e-mail', () => {
    expect(usageAlertOf(firing({}), 'Acme')).toEqual({
      type: 'warning',
      title: 'Usage alert: 80% of the monthly limit',
      text: 'Acme has spent $8,000.00 of its $10,000.00 monthly limit in November 2026.',
    });
    expect(usageAlertOf(firing({ share: 100, spent: 10000.5 }), 'Acme')).toMatchObject({
      type: 'error',
      text: 'Acme has spent $10,000.50 of its $10,000.00 monthly limit in November 2026. Lookups are refused until the month ends or the limit is raised.',
    });
    expect(
      usageAlertOf(
        firing({ kind: 'spike', share: 0, period: '2026-11-20', requests: 3100, average: 1000, multiple: 3 }),
        'Acme',
      ),
    ).toEqual({
      type: 'warning',
      title: 'Usage alert: unusual number of requests today',
      text: 'Acme has made 3,100 requests on 11/20/26 (UTC), more than 3 times its daily average of 1,000 over the previous 7 days.',
    });
  });

  it('keep a pushed notice to its plain fields', () => {
    expect(readNotice({ type: 'info', title: 'T', text: 'x', html: '<b>' })).toEqual({
      type: 'info',
      title: 'T',
      text: 'x',
    });
    for (const bad of [null, 'x', { type: 'info' }, { type: 'loud', title: 'T' }, { type: 'info', title: '' }]) {
      expect(readNotice(bad)).toBeNull();
    }
  });
});
