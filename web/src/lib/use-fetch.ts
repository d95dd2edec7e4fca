/**
 * A page's loads and what became of them (issue 32 item 6). `useFetch` loads a resource into the store when a page
 * opens (and again when its path changes); `useFetchState` does the same and tells the page whether the load
 * failed, with what message and a `retry`, so a list shows its error and a Retry in place of its rows and never
 * its empty sentence over a failure. `useLoads` does the same for a page's own loader (Billing, Usage).
 *
 * The alert the API client shows for a failed load (spec §8) belongs to that load: when the load is tried again and
 * succeeds, that alert goes away (the alert with that title and text: the stack keeps one alert per title).
 */
import type { Alert } from '@tessera/common/alerts';
import { OFFLINE_TEXT } from '@tessera/common/alerts';
import { errorTitle } from '@tessera/common/errors';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from './api';
import { useStore } from './store';

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

export interface LoadState {
  status: LoadStatus;
  /** What went wrong with the last load, when it failed. */
  error: string | null;
}

export interface FetchState extends LoadState {
  /** Loads again (a Retry button). */
  retry(): void;
}

/** The message of a failed load: the API's error text, or the offline text when the server was not reached. */
export function loadErrorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof TypeError) return OFFLINE_TEXT; // fetch rejects with a TypeError when nothing answered
  return err instanceof Error ? err.message : String(err);
}

/** The alert the API client added for this failure, if it added one (it does for statuses it does not route). */
function alertOf(err: unknown): Alert | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const title = errorTitle(err.status);
  const alerts = useStore.getState().alerts;
  return [...alerts].reverse().find((a) => a.type === 'error' && a.title === title && a.text === err.message);
}

const alertKey = (a: Alert) => `${a.title}\u0000${a.text ?? ''}`;

function removeAlerts(tied: Set<string>): void {
  if (tied.size === 0) return;
  const store = useStore.getState();
  store.set({ alerts: store.alerts.filter((a) => a.type !== 'error' || !tied.has(alertKey(a))) });
  tied.clear();
}

/**
 * Tracks a page's own loads: `track(promise)` records the outcome of the latest load started (an older one that
 * ends later does not count), and a success removes the alerts of the failures before it.
 */
export function useLoads(): LoadState & { track<T>(load: Promise<T>): Promise<T> } {
  const [state, setState] = useState<LoadState>({ status: 'idle', error: null });
  const latest = useRef(0);
  const tied = useRef(new Set<string>());
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const track = useCallback(<T>(load: Promise<T>): Promise<T> => {
    const run = ++latest.current;
    if (live.current) setState((s) => (s.status === 'loading' ? s : { status: 'loading', error: s.error }));
    return load.then(
      (value) => {
        if (run === latest.current) {
          removeAlerts(tied.current);
          if (live.current) setState({ status: 'loaded', error: null });
        }
        return value;
      },
      (err: unknown) => {
        const alert = alertOf(err);
        if (alert) tied.current.add(alertKey(alert));
        if (run === latest.current && live.current) setState({ status: 'failed', error: loadErrorText(err) });
        throw err;
      },
    );
  }, []);
  return { ...state, track };
}

/** Loads `path` into the store and tells how that went; null waits (nothing to load yet). */
export function useFetchState(path: string | null, query?: Record<string, string | number | boolean>): FetchState {
  const { status, error, track } = useLoads();
  const [attempt, setAttempt] = useState(0);
  const search = query ? JSON.stringify(query) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what Retry changes, to load again
  useEffect(() => {
    if (path === null) return;
    track(api.get(path, search ? JSON.parse(search) : undefined)).catch(() => {
      // Shown by the API client's alert and by the page's error state.
    });
  }, [path, search, attempt, track]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { status: path === null ? 'idle' : status === 'idle' ? 'loading' : status, error, retry };
}

/**
 * Loads `path` into the store; returns whether a call has finished (either way), and stays true when the path
 * changes later. A failure was already shown by the API client; pages with a list use `useFetchState` to show it
 * in place of the list too.
 */
export function useFetch(path: string | null, query?: Record<string, string | number | boolean>): boolean {
  const { status } = useFetchState(path, query);
  const finished = useRef(false);
  if (status === 'loaded' || status === 'failed') finished.current = true;
  return finished.current;
}
