/**
 * What the home page shows (issue 16), worked out from the usage API and the store: this month's totals and the
 * last 30 days by day, refreshed whenever the socket says a call was made; the contract in force; the user's most
 * recently used keys and the most recently edited templates. The pure parts are exported for the tests.
 */
import { type Contract, contractInForce as inForce } from '@tessera/common/contracts';
import type { User } from '@tessera/common/entities';
import type { KeyEntry } from '@tessera/common/key-settings';
import type { Template } from '@tessera/common/templates';
import type { UsagePoint, UsageTotals } from '@tessera/common/usage';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { useStore } from '../../lib/store';
import { browserTimeZone, defaultWho, type Who, whoQuery } from '../../lib/usage-scope';

export const SPARK_DAYS = 30;
export const LIST_LENGTH = 5;

/** Midnight starting the calendar month of `now`, in the browser's time zone. */
export const monthStart = (now: Date) => new Date(now.getFullYear(), now.getMonth(), 1);

/** Midnight starting the first of the `days` days that end with today, in the browser's time zone. */
export const daysStart = (now: Date, days: number) =>
  new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));

export interface HomeUsage {
  since: Date;
  totals: UsageTotals;
  /** Requests per day over the last SPARK_DAYS days, today last. */
  days: UsagePoint[];
}

/** Whose figures the page shows: what the usage page opens with (its `defaultWho`). */
export function homeScope(self: Pick<User, 'id' | 'role' | 'organizationId'>): {
  who: Who;
  query: Record<string, number>;
} {
  const who = defaultWho(self.role, self.organizationId);
  return { who, query: whoQuery(who, self) };
}

/**
 * This month's totals and the last 30 days' requests, loaded when the page opens and again after every call the
 * socket reports (`areas.usage`, at most once a second); the keys are reloaded with them, since their last use and
 * calls this month change with each call. Null until the first answer; an answer that arrives after a newer
 * request was made is dropped.
 */
export function useHomeUsage(self: User): HomeUsage | null {
  const live = useStore((s) => s.areas.usage);
  const scope = JSON.stringify(homeScope(self).query);
  const tz = useMemo(browserTimeZone, []);
  const [usage, setUsage] = useState<HomeUsage | null>(null);
  const latest = useRef(0);
  const opened = useRef(live);

  useEffect(() => {
    const request = ++latest.current;
    const now = new Date();
    const since = monthStart(now);
    const who = JSON.parse(scope) as Record<string, number>;
    const to = now.toISOString();
    if (live !== opened.current) {
      void api.get('/v2/keys').catch(() => {
        // The API client has shown the error.
      });
    }
    Promise.all([
      api.get<{ usageTotals: { totals: UsageTotals } }>('/v2/usage/totals', {
        from: since.toISOString(),
        to,
        tz,
        ...who,
      }),
      api.get<{ usageSeries: { points: UsagePoint[] } }>('/v2/usage/series', {
        from: daysStart(now, SPARK_DAYS).toISOString(),
        to,
        tz,
        interval: 'day',
        metric: 'requests',
        ...who,
      }),
    ]).then(
      ([totals, series]) => {
        if (request !== latest.current) return;
        setUsage({ since, totals: totals.usageTotals.totals, days: series.usageSeries.points });
      },
      () => {
        // The API client has shown the error; the figures stay as they were.
      },
    );
  }, [scope, tz, live]);

  return usage;
}

/** The organization's contract in force now (common/contracts.ts, as the server admits calls); null when none. */
export function contractInForce(
  contracts: Contract[],
  organizationId: number | null,
  now: number = Date.now(),
): Contract | null {
  if (organizationId === null) return null;
  return inForce(
    contracts.filter((c) => c.organizationId === organizationId),
    now,
  );
}

/** A share of the limit as whole percent for the text: '<1 %' for a little, never 100 % before it is reached. */
export function percentText(part: number, whole: number): string {
  const share = whole > 0 ? (part / whole) * 100 : 0;
  if (share > 0 && share < 1) return '<1 %';
  return `${Math.floor(share)} %`;
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);

/** The user's own live keys, most recently used first (never used last, newest first among them), at most five. */
export function recentKeys(keys: Record<string, KeyEntry> | undefined, userId: number): KeyEntry[] {
  return Object.values(keys ?? {})
    .filter((k) => !k.deletedAt && k.userId === userId)
    .sort((a, b) => time(b.lastUsedAt) - time(a.lastUsedAt) || time(b.createdAt) - time(a.createdAt))
    .slice(0, LIST_LENGTH);
}

/** The templates the user sees, most recently edited first, at most five. */
export function recentTemplates(templates: Record<string, Template> | undefined): Template[] {
  return Object.values(templates ?? {})
    .filter((t) => !t.deletedAt)
    .sort((a, b) => time(b.updatedAt) - time(a.updatedAt) || b.id - a.id)
    .slice(0, LIST_LENGTH);
}

/** The total of a series and its busiest point (the first of equals); no peak when everything is zero. */
export function seriesSummary(points: UsagePoint[]): { total: number; peak: UsagePoint | null } {
  let total = 0;
  let peak: UsagePoint | null = null;
  for (const point of points) {
    total += point.value;
    if (point.value > 0 && (peak === null || point.value > peak.value)) peak = point;
  }
  return { total, peak };
}
