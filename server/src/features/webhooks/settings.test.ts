/** The WEBHOOK_* settings (decision 0066): defaults, accepted forms, and a bad value stopping the start by name. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { blockedKind } from './addresses';
import { parseDuration, webhookSettingsFromEnv } from './settings';
import { retryDelay } from './worker';

describe('webhookSettingsFromEnv', () => {
  it('defaults to the Standard Webhooks schedule (over 24 hours in all), 10 s, 50 failures and a 24 h overlap', () => {
    const settings = webhookSettingsFromEnv({});
    expect(settings).toEqual({
      allowPrivate: false,
      retryScheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      timeoutMs: 10_000,
      disableAfterFailures: 50,
      secretOverlapMs: 86_400_000,
      worker: true,
      logRetentionDays: 30,
    });
    const total = (settings as { retryScheduleMs: number[] }).retryScheduleMs.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3_600_000);
  });

  it('reads what is set', () => {
    expect(
      webhookSettingsFromEnv({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: ' 0, 250ms,1s ,2m,1d',
        WEBHOOK_TIMEOUT_MS: '500',
        WEBHOOK_DISABLE_AFTER_FAILURES: '3',
        WEBHOOK_SECRET_OVERLAP: '0',
        WEBHOOK_WORKER: 'false',
        WEBHOOK_LOG_RETENTION_DAYS: '7',
      }),
    ).toEqual({
      allowPrivate: true,
      retryScheduleMs: [0, 250, 1000, 120_000, 86_400_000],
      timeoutMs: 500,
      disableAfterFailures: 3,
      secretOverlapMs: 0,
      worker: false,
      logRetentionDays: 7,
    });
  });

  it.each([
    ['WEBHOOK_RETRY_SCHEDULE', '5s,10s'],
    ['WEBHOOK_RETRY_SCHEDULE', '0,5 seconds'],
    ['WEBHOOK_RETRY_SCHEDULE', '0,,5s'],
    ['WEBHOOK_RETRY_SCHEDULE', '0,31d'],
    ['WEBHOOK_RETRY_SCHEDULE', Array(21).fill('0').join(',')],
    ['WEBHOOK_TIMEOUT_MS', '50'],
    ['WEBHOOK_TIMEOUT_MS', '10s'],
    ['WEBHOOK_DISABLE_AFTER_FAILURES', '0'],
    ['WEBHOOK_DISABLE_AFTER_FAILURES', 'many'],
    ['WEBHOOK_SECRET_OVERLAP', '24'],
    ['WEBHOOK_SECRET_OVERLAP', '1y'],
    ['WEBHOOK_LOG_RETENTION_DAYS', '0'],
    ['WEBHOOK_LOG_RETENTION_DAYS', '30d'],
  ])('refuses %s=%s, naming it, at start', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration: ${name} must`));
  });

  it('parses durations', () => {
    expect([parseDuration('0'), parseDuration('15ms'), parseDuration('2h'), parseDuration('5')]).toEqual([
      0,
      15,
      7_200_000,
      null,
    ]);
  });
});

describe('retryDelay', () => {
  it('waits the schedule’s entry for the next attempt, plus at most 10 % jitter, and has none past the last', () => {
    const schedule = [0, 5_000, 300_000];
    expect(retryDelay(schedule, 2, 0)).toBe(5_000);
    expect(retryDelay(schedule, 2, 0.999)).toBeCloseTo(5_499.5);
    expect(retryDelay(schedule, 3, 0.5)).toBe(315_000);
    expect(retryDelay(schedule, 4, 0.5)).toBeNull();
  });
});

describe('blockedKind', () => {
  it.each([
    ['93.184.215.14', null],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', null],
    ['10.1.2.3', 'private'],
    ['127.0.0.2', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:192.168.0.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::abcd', 'link-local'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['239.1.1.1', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(blockedKind(address)).toBe(kind);
  });
});
