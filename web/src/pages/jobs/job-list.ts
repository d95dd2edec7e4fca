/**
 * The list of jobs the page holds, kept newest first, and the rule that keeps a newer answer: every call that
 * answers with jobs (the first page, an older page, a refresh, a cancel, a new job) takes a number when it starts,
 * and a job is only replaced by an answer started after the one it came from. So a slow refresh that left before a
 * Cancel cannot put the job back to "running" after the cancel's reply said "cancelled". And as a job only moves
 * forward, a reading behind the one shown (a refresh the server answered just before it took the cancel) is kept out
 * too, whenever it started; and an older call's answer that is ahead of the one shown (the cancel's reply, when a
 * refresh started after it came back first) is taken.
 */
import { ENDED_JOB_STATUSES, type Job } from '@tessera/common/jobs';

/** Jobs newest first (by when they were made; the order of the list as the server gives it otherwise). */
export function newestFirst(jobs: Job[]): Job[] {
  return jobs
    .map((job, index) => ({ job, index }))
    .sort((a, b) => b.job.createdAt.localeCompare(a.job.createdAt) || a.index - b.index)
    .map((e) => e.job);
}

const ended = (job: Job) => ENDED_JOB_STATUSES.includes(job.status);

/** Whether `incoming` is further along than `shown`: ended where it ran, or more rows done. */
export function ahead(shown: Job, incoming: Job): boolean {
  if (ended(shown) !== ended(incoming)) return ended(incoming);
  return incoming.rows.done > shown.rows.done;
}

/** Whether `incoming` is behind `shown`: running again after it ended, or fewer rows done. */
const behind = (shown: Job, incoming: Job) => ahead(incoming, shown);

/**
 * `current` with the answers put in, a new job added: a `fresh` answer replaces the job shown unless it is behind
 * it (a job only moves forward: it does not start again once ended, its rows done do not go down); a `stale` one (a
 * newer call answered for that job already) only when it is ahead of it.
 */
export function mergeJobs(current: Job[], fresh: Job[], stale: Job[] = []): Job[] {
  if (fresh.length === 0 && stale.length === 0) return current;
  const freshById = new Map(fresh.map((j) => [j.id, j]));
  const staleById = new Map(stale.map((j) => [j.id, j]));
  const known = new Set(current.map((j) => j.id));
  const merged = current.map((j) => {
    const next = freshById.get(j.id);
    if (next) return behind(j, next) ? j : next;
    const old = staleById.get(j.id);
    return old && ahead(j, old) ? old : j;
  });
  const added = [...fresh, ...stale.filter((j) => !freshById.has(j.id))].filter((j) => !known.has(j.id));
  return added.length === 0 ? merged : newestFirst([...added, ...merged]);
}

export interface AnswerGate {
  /** A number for a call starting now. */
  begin(): number;
  /** `jobs` (answered by the call numbered `run`): those no later call has answered for yet, and the others. */
  sort(run: number, jobs: Job[]): { fresh: Job[]; stale: Job[] };
}

export function answerGate(): AnswerGate {
  let last = 0;
  const answeredBy = new Map<string, number>();
  return {
    begin: () => ++last,
    sort(run, jobs) {
      const fresh: Job[] = [];
      const stale: Job[] = [];
      for (const j of jobs) {
        if ((answeredBy.get(j.id) ?? 0) < run) {
          answeredBy.set(j.id, run);
          fresh.push(j);
        } else stale.push(j);
      }
      return { fresh, stale };
    },
  };
}

/**
 * How many of the newest jobs a refresh asks for: down to the oldest job still running (the API's list is newest
 * first), at most `max`; 0 when none runs.
 */
export function refreshDepth(jobs: Job[], isActive: (job: Job) => boolean, max: number): number {
  let depth = 0;
  jobs.forEach((job, index) => {
    if (isActive(job)) depth = index + 1;
  });
  return Math.min(depth, max);
}
