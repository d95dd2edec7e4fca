import { formatDate } from '@tessera/common/dates';
import { describe, expect, it } from 'vitest';
import { attemptOutcome, endpointStatus, latency, nextAttempt, SECONDS_FORMAT } from './webhook-status';

const AT = '2026-03-04T17:05:09Z';

describe('an endpoint’s status', () => {
  const endpoint = { enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0 } as const;

  it('is Enabled while on, whatever failures it has had since the last success', () => {
    expect(endpointStatus(endpoint)).toBe('Enabled');
    expect(endpointStatus({ ...endpoint, consecutiveFailures: 2 })).toBe('Enabled');
  });

  it('says who switched it off and when', () => {
    const off = { ...endpoint, enabled: false, disabledAt: AT };
    expect(endpointStatus({ ...off, disabledReason: 'manual' })).toBe(`Disabled by you on ${formatDate(AT)}`);
    expect(endpointStatus({ ...off, disabledReason: 'failures', consecutiveFailures: 50 })).toBe(
      `Disabled after 50 failures on ${formatDate(AT)}`,
    );
    expect(endpointStatus({ ...off, disabledReason: 'failures', consecutiveFailures: 1 })).toBe(
      `Disabled after 1 failure on ${formatDate(AT)}`,
    );
    expect(endpointStatus({ ...off, disabledReason: 'failures', consecutiveFailures: 1200 })).toMatch(
      /^Disabled after 1,200 failures/,
    );
  });
});

describe('a delivery’s figures', () => {
  it('words an attempt by its status code, or why none came', () => {
    expect(attemptOutcome({ statusCode: 500, error: null })).toBe('500');
    expect(attemptOutcome({ statusCode: null, error: 'Timed out after 10000 ms.' })).toBe('Timed out after 10000 ms.');
    expect(attemptOutcome({ statusCode: 200, error: 'The answer was cut at 65536 bytes.' })).toBe(
      '200: The answer was cut at 65536 bytes.',
    );
    expect(attemptOutcome({ statusCode: null, error: null })).toBe('No answer');
  });

  it('gives the next attempt only while one is due', () => {
    expect(nextAttempt({ status: 'pending', nextAttemptAt: AT })).toBe(formatDate(AT, SECONDS_FORMAT));
    expect(nextAttempt({ status: 'pending', nextAttemptAt: AT }, false)).toBe('When enabled');
    expect(nextAttempt({ status: 'succeeded', nextAttemptAt: null })).toBe('None');
    expect(nextAttempt({ status: 'failed', nextAttemptAt: null })).toBe('None');
  });

  it('shows latency in whole milliseconds', () => {
    expect(latency(1234.6)).toBe('1,235 ms');
    expect(latency(null)).toBe('');
  });
});
