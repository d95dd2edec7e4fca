/**
 * The jobs as the page holds them (issue 33 item 3): the newest page loaded when the page opens (its failure shown in
 * place of the list, with a Retry), older pages on asking (the API's `next`), a job just made put at the top, and
 * live progress: while any job shown is queued or running, the jobs are read again every 2 s, one refresh at a time,
 * and not while the page is hidden or after it closed. Every answer passes the gate of job-list.ts, so an answer
 * never overwrites a newer one.
 */
import type { Job } from '@tessera/common/jobs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type FetchState, useLoads } from '../../lib/use-fetch';
import { JOB_PAGE, jobPage, refreshJob, refreshPage } from './job-api';
import { isActive } from './job-format';
import { answerGate, mergeJobs, newestFirst, refreshDepth } from './job-list';

/** How often running jobs are read again. */
export const REFRESH_MS = 2000;

export interface JobList {
  items: Job[];
  load: FetchState;
  /** An older page is left to load. */
  more: boolean;
  loadingMore: boolean;
  loadMore(): void;
  /** Puts in a job answered by a call started at `run` (from `begin`), unless a newer answer came. */
  accept(run: number, jobs: Job[]): void;
  /** A number for a call about to start, for `accept`. */
  begin(): number;
}

const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

export function useJobs(): JobList {
  const { status, error, track } = useLoads();
  const [attempt, setAttempt] = useState(0);
  const [items, setItems] = useState<Job[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const gate = useRef(answerGate());
  const latest = useRef(items);
  latest.current = items;

  const begin = useCallback(() => gate.current.begin(), []);
  const accept = useCallback((run: number, jobs: Job[]) => {
    const { fresh, stale } = gate.current.sort(run, jobs);
    setItems((current) => mergeJobs(current, fresh, stale));
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what Retry changes, to load again
  useEffect(() => {
    let live = true;
    const run = gate.current.begin();
    track(jobPage(null)).then(
      (page) => {
        if (!live) return;
        const { fresh, stale } = gate.current.sort(run, page.jobs);
        setItems((current) => newestFirst(mergeJobs(current, fresh, stale)));
        setNext(page.next);
      },
      () => {
        // Shown by the API client's alert and in place of the list.
      },
    );
    return () => {
      live = false;
    };
  }, [attempt, track]);

  const loadMore = useCallback(() => {
    if (next === null) return;
    setLoadingMore(true);
    const run = gate.current.begin();
    jobPage(next)
      .then((page) => {
        accept(run, page.jobs);
        setNext(page.next);
      })
      .catch(() => {
        // The API client has shown the error; the button stays for another try.
      })
      .finally(() => setLoadingMore(false));
  }, [next, accept]);

  // Live progress: the ids of the jobs still running say whether, and which, to read again.
  const running = items
    .filter(isActive)
    .map((j) => j.id)
    .join(',');
  useEffect(() => {
    if (running === '') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;

    const refresh = async () => {
      if (stopped || inFlight || hidden()) return;
      inFlight = true;
      const run = gate.current.begin();
      const jobs = latest.current;
      const depth = refreshDepth(jobs, isActive, JOB_PAGE.max);
      try {
        const page = depth > 0 ? await refreshPage(depth).catch(() => null) : null;
        const answered = new Set(page?.jobs.map((j) => j.id) ?? []);
        // Those out of the newest page's reach (jobs made since pushed them down) are read one by one.
        const others = jobs.filter((j) => isActive(j) && !answered.has(j.id));
        const singles = await Promise.all(others.map((j) => refreshJob(j.id)));
        if (stopped) return;
        accept(run, [...(page?.jobs ?? []), ...singles.filter((j): j is Job => j !== null)]);
      } finally {
        inFlight = false;
        schedule();
      }
    };
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && !hidden()) timer = setTimeout(() => void refresh(), REFRESH_MS);
    };
    // Back in view: read at once, then every 2 s again; out of view: nothing.
    const onVisibility = () => {
      clearTimeout(timer);
      if (!hidden()) void refresh();
    };

    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [running, accept]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const load: FetchState = { status: status === 'idle' ? 'loading' : status, error, retry };
  return { items, load, more: next !== null, loadingMore, loadMore, accept, begin };
}
