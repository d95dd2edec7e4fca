import type { Job } from '@tessera/common/jobs';
import { describe, expect, it } from 'vitest';
import { isActive } from './job-format';
import { answerGate, mergeJobs, newestFirst, refreshDepth } from './job-list';

const job = (id: string, extra: Partial<Job> = {}): Job => ({
  id,
  status: 'running',
  endpoint: 'byEmail',
  format: 'csv',
  options: {},
  rows: { total: 4000, done: 0, matched: 0, failed: 0 },
  identities: 0,
  cost: '0.000000',
  rowsPerSecond: null,
  etaSeconds: null,
  error: null,
  createdAt: '2026-11-28T14:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  expiresAt: null,
  resultUrl: null,
  ...extra,
});
const done = (n: number) => ({ total: 4000, done: n, matched: 0, failed: 0 });
const ids = (jobs: Job[]) => jobs.map((j) => j.id);

describe('the list', () => {
  it('is newest first, keeping the server’s order for jobs made in the same moment', () => {
    const a = job('a', { createdAt: '2026-11-28T14:00:00.000Z' });
    const b = job('b', { createdAt: '2026-11-28T14:05:00.000Z' });
    const c = job('c', { createdAt: '2026-11-28T14:00:00.000Z' });
    expect(ids(newestFirst([a, b, c]))).toEqual(['b', 'a', 'c']);
  });

  it('replaces a job in place and puts a new one at the top', () => {
    const older = job('old', { createdAt: '2026-11-28T13:00:00.000Z' });
    const list = [job('a'), older];
    const made = job('new', { createdAt: '2026-11-28T15:00:00.000Z', status: 'queued' });
    const merged = mergeJobs(list, [made, job('a', { rows: done(2000) })]);
    expect(ids(merged)).toEqual(['new', 'a', 'old']);
    expect(merged[1]?.rows.done).toBe(2000);
    expect(mergeJobs(list, [])).toBe(list);
  });

  it('never takes a reading behind the one shown: ended stays ended, rows done do not go down', () => {
    const cancelled = job('a', { status: 'cancelled', rows: done(2000) });
    expect(mergeJobs([cancelled], [job('a', { rows: done(2000) })])[0]).toBe(cancelled);
    const far = job('a', { rows: done(3000) });
    expect(mergeJobs([far], [job('a', { rows: done(2000) })])[0]).toBe(far);
    const completed = job('a', { status: 'completed', rows: done(4000) });
    expect(mergeJobs([far], [completed])[0]).toBe(completed);
  });
});

describe('the newest answer', () => {
  it('is kept: an answer to a call started earlier does not overwrite a later call’s', () => {
    const gate = answerGate();
    const slowRefresh = gate.begin();
    const cancel = gate.begin();
    let list = [job('a', { rows: done(2000) })];
    const cancelled = job('a', { status: 'cancelled', rows: done(2000) });
    let sorted = gate.sort(cancel, [cancelled]);
    list = mergeJobs(list, sorted.fresh, sorted.stale);
    // The refresh left before the cancel and comes back after it, still saying "running".
    sorted = gate.sort(slowRefresh, [job('a', { rows: done(2000) })]);
    expect(sorted.fresh).toEqual([]);
    list = mergeJobs(list, sorted.fresh, sorted.stale);
    expect(list[0]).toBe(cancelled);
  });

  it('takes an earlier call’s answer that is further along (the cancel’s reply after a quicker refresh)', () => {
    const gate = answerGate();
    const cancel = gate.begin();
    const refresh = gate.begin();
    let list = [job('a', { rows: done(2000) })];
    let sorted = gate.sort(refresh, [job('a', { rows: done(2000) })]);
    list = mergeJobs(list, sorted.fresh, sorted.stale);
    const cancelled = job('a', { status: 'cancelled', rows: done(2000) });
    sorted = gate.sort(cancel, [cancelled]);
    expect(sorted.stale).toEqual([cancelled]);
    list = mergeJobs(list, sorted.fresh, sorted.stale);
    expect(list[0]).toBe(cancelled);
    // But not one behind it.
    sorted = gate.sort(cancel, [job('a', { rows: done(1500) })]);
    expect(mergeJobs(list, sorted.fresh, sorted.stale)[0]).toBe(cancelled);
  });

  it('is counted per job: a later call about one job does not hold back an earlier one about another', () => {
    const gate = answerGate();
    const first = gate.begin();
    const second = gate.begin();
    expect(ids(gate.sort(second, [job('b')]).fresh)).toEqual(['b']);
    expect(ids(gate.sort(first, [job('a'), job('b')]).fresh)).toEqual(['a']);
  });
});

describe('a refresh', () => {
  it('reaches down to the oldest job still running, within the API’s page limit', () => {
    const list = [
      job('a', { status: 'queued' }),
      job('b', { status: 'completed' }),
      job('c'),
      job('d', { status: 'failed' }),
    ];
    expect(refreshDepth(list, isActive, 100)).toBe(3);
    expect(refreshDepth(list, isActive, 2)).toBe(2);
    expect(refreshDepth([job('x', { status: 'completed' })], isActive, 100)).toBe(0);
  });
});
