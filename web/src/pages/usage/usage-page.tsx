/**
 * Usage (spec §2, issue 16): the chosen metric by interval over a range as a chart with the range's totals, or the
 * calls themselves in a table; filtered by who, method and path; everything in the query string; refreshed when
 * the socket says a call was made; the calls exported as a CSV file.
 */
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { hasRank } from '@tessera/common/roles';
import type { UsageCall, UsagePoint, UsageTotals } from '@tessera/common/usage';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { useLoads } from '../../lib/use-fetch';
import { LoadError, showsLoadError } from '../load-error';
import { PageHeading } from '../page-heading';
import { CallsTable } from './calls-table';
import { useKeyOptions } from './key-options';
import { UsageChart } from './usage-chart';
import { UsageFilters } from './usage-filters';
import {
  browserTimeZone,
  defaultWho,
  parseUsageState,
  reportQuery,
  type UsageState,
  usageSearch,
  type WIDGETS,
} from './usage-query';
import { UsageTotalsRow } from './usage-totals';
import { useWhoOptions } from './who-options';

interface Report {
  points: UsagePoint[];
  totals: UsageTotals;
}
interface CallsPage {
  calls: UsageCall[];
  next: string | null;
}

export default function UsagePage() {
  const self = useStore((s) => s.self);
  const live = useStore((s) => s.areas.usage);
  const perPage = useSettings((s) => s.itemsPerPage);
  const [search, setSearch] = useSearchParams();
  const fallbackWho = defaultWho(self.role, self.organizationId);
  const state = useMemo(() => parseUsageState(search, fallbackWho, perPage), [search, fallbackWho, perPage]);
  const whoOptions = useWhoOptions(self);
  const keyOptions = useKeyOptions(state.who, self);
  const tz = useMemo(browserTimeZone, []);

  const [report, setReport] = useState<Report | null>(null);
  const [page, setPage] = useState<CallsPage | null>(null);
  /** The cursors of the pages before the current one (the first page has none). */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  // A cursor belongs to one query: any change of it (Back and Forward included) starts again at the first page.
  const searchKey = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is keyed on the query string alone
  useEffect(() => setCursors([undefined]), [searchKey]);

  const change = useCallback(
    (patch: Partial<UsageState>) => {
      setCursors([undefined]);
      setSearch(usageSearch({ ...state, ...patch }, fallbackWho, perPage), { replace: false });
    },
    [state, fallbackWho, perPage, setSearch],
  );

  const query = useCallback(() => reportQuery(state, self, new Date(), tz), [state, self, tz]);
  const cursor = cursors.at(-1);
  // A failed load shows its error and a Retry in place of the chart or the calls (issue 32 item 6).
  const { track, ...loads } = useLoads();

  // Only the newest load may show its answer: a slower, older one (the filters before a change, or a live refresh)
  // would otherwise put its rows back over the new filters' (seen as a key filter still showing every key's calls).
  const generation = useRef(0);
  const load = useCallback(async () => {
    const run = ++generation.current;
    const current = () => run === generation.current;
    const shared = query();
    try {
      const [series, totals] = await track(
        Promise.all([
          api.get<{ usageSeries: { points: UsagePoint[] } }>('/v2/usage/series', {
            ...shared,
            interval: state.interval,
            metric: state.metric,
          }),
          api.get<{ usageTotals: { totals: UsageTotals } }>('/v2/usage/totals', shared),
        ]),
      );
      if (!current()) return;
      setReport({ points: series.usageSeries.points, totals: totals.usageTotals.totals });
      if (state.widget === 'calls') {
        const calls = await track(
          api.get<{ usageCalls: CallsPage }>('/v2/usage/calls', {
            ...shared,
            sort: state.sort,
            pageSize: state.pageSize,
            ...(cursor ? { after: cursor } : {}),
          }),
        );
        if (current()) setPage(calls.usageCalls);
      }
    } catch {
      // The API client has shown the error.
    }
  }, [query, state.interval, state.metric, state.widget, state.sort, state.pageSize, cursor, track]);

  useEffect(() => {
    void load();
  }, [load]);

  // A call made anywhere the user may see: refresh (the socket says so at most once a second).
  const latest = useRef(load);
  latest.current = load;
  const seen = useRef(live);
  useEffect(() => {
    if (live === seen.current) return;
    seen.current = live;
    void latest.current();
  }, [live]);

  const exportCsv = () =>
    void api.get('/v2/usage/calls.csv', { ...query(), sort: state.sort }).catch(() => {
      // The API client has shown the error.
    });

  const empty = report !== null && report.totals.requests === 0;
  return (
    <>
      <PageHeading>Usage</PageHeading>
      <UsageFilters state={state} whoOptions={whoOptions} keyOptions={keyOptions} onChange={change} />
      <Stack direction="row" sx={{ mb: 2, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={state.widget}
          onChange={(_, widget: (typeof WIDGETS)[number] | null) => widget && change({ widget })}
          aria-label="View"
        >
          <ToggleButton value="chart">Chart</ToggleButton>
          <ToggleButton value="calls">Calls</ToggleButton>
        </ToggleButtonGroup>
        <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={exportCsv}>
          Export CSV
        </Button>
      </Stack>
      {showsLoadError(loads) && (
        <LoadError
          what="the usage"
          error={loads.error}
          retrying={loads.status === 'loading'}
          onRetry={() => void load()}
          sx={{ mb: 2 }}
        />
      )}
      {report && !showsLoadError(loads) && <UsageTotalsRow totals={report.totals} metric={state.metric} />}
      {!showsLoadError(loads) && empty && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="usage-empty">
          No calls in this range yet. Make your first call from the{' '}
          <Link component={RouterLink} to="/playground">
            playground
          </Link>
          {hasRank(self.role, 'user') ? ' with one of your API keys.' : '.'}
        </Alert>
      )}
      {state.widget === 'chart' && report && !showsLoadError(loads) && (
        <UsageChart points={report.points} metric={state.metric} interval={state.interval} />
      )}
      {state.widget === 'calls' && !showsLoadError(loads) && (
        <CallsTable
          calls={page?.calls ?? []}
          loaded={page !== null}
          total={report?.totals.requests ?? 0}
          page={cursors.length - 1}
          hasNext={Boolean(page?.next)}
          pageSize={state.pageSize}
          sort={state.sort}
          metric={state.metric}
          columns={state.columns}
          onPage={(next) =>
            setCursors((list) =>
              next > list.length - 1 && page?.next ? [...list, page.next] : list.slice(0, next + 1),
            )
          }
          onPageSize={(pageSize) => change({ pageSize })}
          onSort={(sort) => change({ sort })}
          onColumns={(columns) => change({ columns })}
        />
      )}
    </>
  );
}
