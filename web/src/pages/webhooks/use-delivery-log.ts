/**
 * An endpoint's delivery log, a page at a time (newest first) by the server's `next` cursor. While a delivery shown
 * is pending and its endpoint is on, the page is loaded again every few seconds, so attempts and outcomes appear as
 * they happen; not while the browser tab is hidden (it looks again when it comes back), nor after a failed load
 * (its Retry starts again). When the endpoint is switched on or off (the run of failures disabling it comes over the
 * socket, with the last attempt's outcome) the page is loaded once more.
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import type { WebhookDeliveryPage } from '@tessera/common/webhooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSettings } from '../../lib/settings';
import { useLoads } from '../../lib/use-fetch';
import { deliveryPage } from './webhook-api';
import { anyPending } from './webhook-status';

/** How often a log with pending deliveries looks again. */
export const POLL_MS = 3000;

/** The log's page size: the console's items per page, when the server takes it. */
const pageSizeOf = (n: number) => ((TABLE_PAGE_SIZES as readonly number[]).includes(n) ? n : 100);

export interface DeliveryLog {
  page: WebhookDeliveryPage | null;
  /** 0 for the newest. */
  index: number;
  pageSize: number;
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  error: string | null;
  retry(): void;
  /** The first page, loaded again (a delivery was just queued). */
  refresh(): void;
  older(): void;
  newer(): void;
  setPageSize(size: number): void;
}

/** `live`: whether the endpoint is on (undefined until it is known). */
export function useDeliveryLog(endpointId: number, live: boolean | undefined): DeliveryLog {
  const pageSize = pageSizeOf(useSettings((s) => s.itemsPerPage));
  const update = useSettings((s) => s.update);
  /** The `after` of each page visited: null for the first. */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [index, setIndex] = useState(0);
  const [page, setPage] = useState<WebhookDeliveryPage | null>(null);
  const [round, setRound] = useState(0);
  const { status, error, track } = useLoads();
  const after = cursors[index] ?? null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is what a poll, Retry or refresh changes
  useEffect(() => {
    let current = true;
    track(deliveryPage(endpointId, pageSize, after)).then(
      (loaded) => {
        if (current) setPage(loaded);
      },
      () => {
        // Shown by the API client's alert and in place of the rows.
      },
    );
    return () => {
      current = false;
    };
  }, [endpointId, pageSize, after, round, track]);

  const lastLive = useRef(live);
  useEffect(() => {
    if (lastLive.current !== undefined && lastLive.current !== live) setRound((n) => n + 1);
    lastLive.current = live;
  }, [live]);

  const pending = page !== null && anyPending(page.deliveries);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `page` too: each page loaded schedules the next look
  useEffect(() => {
    if (!live || !pending || status === 'failed') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => setRound((n) => n + 1);
    if (document.visibilityState === 'visible') timer = setTimeout(again, POLL_MS);
    const onVisibility = () => {
      clearTimeout(timer);
      if (document.visibilityState === 'visible') again();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [live, pending, status, page]);

  const again = useCallback(() => setRound((n) => n + 1), []);
  const first = useCallback(() => {
    setCursors([null]);
    setIndex(0);
    setRound((n) => n + 1);
  }, []);
  return {
    page,
    index,
    pageSize,
    status: status === 'idle' ? 'loading' : status,
    error,
    retry: again,
    refresh: first,
    older() {
      const next = page?.next;
      if (!next) return;
      setCursors((c) => [...c.slice(0, index + 1), next]);
      setIndex(index + 1);
    },
    newer() {
      setIndex(Math.max(0, index - 1));
    },
    setPageSize(size) {
      update({ itemsPerPage: size });
      first();
    },
  };
}
