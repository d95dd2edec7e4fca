import type { Job } from '@tessera/common/jobs';
import { describe, expect, it } from 'vitest';
import { jobQuery } from './job-api';
import {
  formatEta,
  formatRate,
  isActive,
  jobAction,
  NONE,
  progressFigures,
  progressPercent,
  progressText,
} from './job-format';
import { EMPTY_JOB, JOB_FORM_MESSAGES, jobOptionsOf, limitProblem, minScoreProblem } from './new-job-values';

const NOW = Date.parse('2026-11-28T14:00:00Z');

const job = (extra: Partial<Job> = {}): Job => ({
  id: 'job_5f0c2d3e9a8b7c6d5e4f3a2b',
  status: 'running',
  endpoint: 'byEmail',
  format: 'csv',
  options: {},
  rows: { total: 2500, done: 1000, matched: 120, failed: 3 },
  identities: 130,
  cost: '0.130000',
  rowsPerSecond: 250,
  etaSeconds: 6,
  error: null,
  createdAt: '2026-11-28T13:59:00Z',
  startedAt: '2026-11-28T13:59:01Z',
  finishedAt: null,
  expiresAt: null,
  resultUrl: null,
  ...extra,
});

describe('time left', () => {
  it('reads as a person would say it', () => {
    expect(formatEta(0)).toBe('less than a minute');
    expect(formatEta(44)).toBe('less than a minute');
    expect(formatEta(45)).toBe('about 1 min');
    expect(formatEta(89)).toBe('about 1 min');
    expect(formatEta(120)).toBe('about 2 min');
    expect(formatEta(150)).toBe('about 3 min');
    expect(formatEta(59 * 60)).toBe('about 59 min');
    expect(formatEta(3600)).toBe('about 1 h');
    expect(formatEta(3600 + 14 * 60)).toBe('about 1 h 15 min');
    expect(formatEta(2 * 3600 + 58 * 60)).toBe('about 3 h');
    expect(formatEta(47 * 3600)).toBe('about 47 h');
    expect(formatEta(3 * 86_400 + 3600)).toBe('about 3 days');
  });

  it('is a dash without an estimate', () => {
    for (const v of [null, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatEta(v)).toBe(NONE);
  });
});

describe('rate', () => {
  it('is rows a second, one decimal under ten, whole and separated above', () => {
    expect(formatRate(0.25)).toBe('0.3');
    expect(formatRate(1)).toBe('1');
    expect(formatRate(3.46)).toBe('3.5');
    expect(formatRate(9.96)).toBe('10');
    expect(formatRate(10.4)).toBe('10');
    expect(formatRate(1249.6)).toBe('1,250');
  });

  it('is a dash before the first chunk', () => {
    for (const v of [null, -3, Number.NaN]) expect(formatRate(v)).toBe(NONE);
  });
});

describe('progress', () => {
  it('is rows done of the total, as a share and in words', () => {
    expect(progressPercent(job())).toBe(40);
    expect(progressText(job())).toBe('1,000 of 2,500 rows');
    expect(progressFigures(job())).toBe('1,000 / 2,500');
    expect(progressText(job({ rows: { total: 1, done: 0, matched: 0, failed: 0 } }))).toBe('0 of 1 row');
    expect(progressPercent(job({ rows: { total: 10, done: 12, matched: 0, failed: 0 } }))).toBe(100);
  });

  it('counts a job with no rows as done once it ended', () => {
    const none = { total: 0, done: 0, matched: 0, failed: 0 };
    expect(progressPercent(job({ rows: none, status: 'queued' }))).toBe(0);
    expect(progressPercent(job({ rows: none, status: 'completed' }))).toBe(100);
  });
});

describe('what can be done with a job', () => {
  it('cancels a queued or running job', () => {
    expect(jobAction(job({ status: 'queued' }), NOW)).toBe('cancel');
    expect(jobAction(job({ status: 'running' }), NOW)).toBe('cancel');
    expect(isActive(job({ status: 'queued' }))).toBe(true);
    expect(isActive(job({ status: 'completed' }))).toBe(false);
  });

  it('downloads an ended job until its result expires, then says it expired', () => {
    const ended = (status: Job['status'], expiresAt: string) =>
      job({ status, expiresAt, resultUrl: '/v2/jobs/job_5f0c2d3e9a8b7c6d5e4f3a2b/result' });
    for (const status of ['completed', 'failed', 'cancelled'] as const) {
      expect(jobAction(ended(status, '2026-12-05T14:00:00Z'), NOW), status).toBe('download');
      expect(jobAction(ended(status, '2026-11-28T14:00:00Z'), NOW), status).toBe('expired');
    }
    expect(jobAction(job({ status: 'completed', resultUrl: null }), NOW)).toBe('none');
    expect(jobAction(job({ status: 'uploading' }), NOW)).toBe('none');
  });
});

describe('the New Job form', () => {
  it('checks minScore and limit as the API does, and leaves them out when empty', () => {
    expect(minScoreProblem('')).toBeUndefined();
    expect(minScoreProblem('0')).toBeUndefined();
    expect(minScoreProblem('87.5')).toBeUndefined();
    expect(minScoreProblem('100')).toBeUndefined();
    for (const bad of ['-1', '100.5', 'high']) expect(minScoreProblem(bad), bad).toBe(JOB_FORM_MESSAGES.minScore);
    expect(limitProblem('1')).toBeUndefined();
    expect(limitProblem('100')).toBeUndefined();
    for (const bad of ['0', '101', '2.5', 'ten']) expect(limitProblem(bad), bad).toBe(JOB_FORM_MESSAGES.limit);
  });

  it('puts the endpoint, a format other than csv and the options given in the query', () => {
    expect(jobQuery(jobOptionsOf(EMPTY_JOB))).toBe('endpoint=byEmail');
    const values = { ...EMPTY_JOB, endpoint: 'byPii', format: 'jsonl', template: '12', minScore: ' 80 ', limit: '5' };
    expect(jobQuery(jobOptionsOf(values))).toBe('endpoint=byPii&format=jsonl&template=12&minScore=80&limit=5');
    expect(jobOptionsOf({ ...EMPTY_JOB, endpoint: 'byNothing', format: 'xml' })).toMatchObject({
      endpoint: 'byEmail',
      format: 'csv',
    });
  });
});
