/**
 * The organization's subscriptions as the page holds them: the first page loaded when the page opens (its failure
 * shown in place of the list, with a Retry), older pages on asking (`before` the oldest shown), a subscription just
 * made put at the top, one deleted taken out. With them, the use of the contract's subscription limit: the figures of
 * the latest list read (every page carries them), moved by one at once by a Subscribe or a Delete made here, so the
 * line is right before the next read; a reply to an earlier read never overwrites what a later one or a change told.
 */
import { SUBSCRIPTION_LIMITS, type Subscription } from '@tessera/common/subscriptions';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type FetchState, useLoads } from '../../lib/use-fetch';
import { type SubscriptionPage, subscriptionPage } from './subscription-api';
import { changedUse, type LimitUse, newerUse } from './subscription-values';

export interface SubscriptionList {
  items: Subscription[];
  load: FetchState;
  /** Every page is loaded: no older subscription is left to show. */
  complete: boolean;
  loadingMore: boolean;
  /** The organization's use of its contract's limit; null until a list reply has told it. */
  use: LimitUse | null;
  loadMore(): void;
  add(made: Subscription): void;
  /** Takes one off the list: deleted here now (the count moves by one), or found deleted already (read again). */
  remove(id: number, deletedHere: boolean): void;
  /** Reads the use again (when the server's answer says the page's may be out of date). */
  recount(): void;
}

const newestFirst = (list: Subscription[]) => [...list].sort((a, b) => b.id - a.id);

/** Items with `page` added, each once. */
export function mergePage(items: Subscription[], page: Subscription[]): Subscription[] {
  const known = new Set(items.map((s) => s.id));
  return newestFirst([...items, ...page.filter((s) => !known.has(s.id))]);
}

/** Whether a page of this many leaves older ones to ask for. */
export const mayHaveMore = (pageLength: number) => pageLength >= SUBSCRIPTION_LIMITS.page;

export function useSubscriptions(enabled: boolean): SubscriptionList {
  const { status, error, track } = useLoads();
  const [attempt, setAttempt] = useState(0);
  const [items, setItems] = useState<Subscription[]>([]);
  const [more, setMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [use, setUse] = useState<LimitUse | null>(null);
  /** Stamps list reads when sent and changes when made, so the latest of them is what the line tells. */
  const clock = useRef(0);

  /** A list read: its page, and what takes the page's figures unless something later is known by then. */
  const read = useCallback((before: number | null) => {
    const stamp = ++clock.current;
    const taken = (page: SubscriptionPage) =>
      setUse((known) => newerUse(known, { live: page.live, limit: page.limit, stamp }));
    return { page: subscriptionPage(before), taken };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what Retry changes, to load again
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const { page, taken } = read(null);
    track(page).then(
      (first) => {
        if (!live) return;
        setItems(first.items);
        setMore(mayHaveMore(first.items.length));
        taken(first);
      },
      () => {
        // Shown by the API client's alert and in place of the list.
      },
    );
    return () => {
      live = false;
    };
  }, [enabled, attempt, track, read]);

  const oldest = items.at(-1)?.id ?? null;
  const loadMore = useCallback(() => {
    if (oldest === null) return;
    setLoadingMore(true);
    const { page, taken } = read(oldest);
    page
      .then((older) => {
        setItems((current) => mergePage(current, older.items));
        setMore(mayHaveMore(older.items.length));
        taken(older);
      })
      .catch(() => {
        // The API client has shown the error; the button stays for another try.
      })
      .finally(() => setLoadingMore(false));
  }, [oldest, read]);

  const recount = useCallback(() => {
    const { page, taken } = read(null);
    page.then(taken, () => {
      // The API client has shown the error; the line keeps what it knew.
    });
  }, [read]);

  const change = useCallback((by: 1 | -1) => {
    const stamp = ++clock.current;
    setUse((known) => changedUse(known, by, stamp));
  }, []);
  const add = useCallback(
    (made: Subscription) => {
      setItems((current) => mergePage(current, [made]));
      change(1);
    },
    [change],
  );
  const remove = useCallback(
    (id: number, deletedHere: boolean) => {
      setItems((current) => current.filter((s) => s.id !== id));
      // One deleted elsewhere meanwhile may or may not be counted in what the page knows: the server tells.
      if (deletedHere) change(-1);
      else recount();
    },
    [change, recount],
  );
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  const load: FetchState = { status: enabled ? (status === 'idle' ? 'loading' : status) : 'idle', error, retry };
  const complete = load.status === 'loaded' && !more;
  return { items, load, complete, loadingMore, use, loadMore, add, remove, recount };
}
