/**
 * The size of the audience being built, asked for SEGMENT_COUNT_DEBOUNCE_MS (spec §9: 250 ms) after the last change,
 * and only for filters that pass the shared rules; a reply to filters since changed is dropped.
 */
import { readSegmentFilters, SEGMENT_COUNT_DEBOUNCE_MS } from '@tessera/common/segments';
import { useEffect, useRef, useState } from 'react';
import { request } from '../../lib/api';

export interface SegmentSize {
  count: number | null;
  counting: boolean;
  /** Problems by path under `filters.`, from the shared rules. */
  problems: Record<string, string>;
}

export function problemsOf(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of readSegmentFilters(raw).problems) out[p.path.replace(/^filters\.?/, '')] ??= p.message;
  return out;
}

export function useSegmentSize(raw: Record<string, unknown>): SegmentSize {
  const key = JSON.stringify(raw);
  const [state, setState] = useState<SegmentSize>({ count: null, counting: false, problems: {} });
  const asked = useRef(0);
  useEffect(() => {
    const filters = JSON.parse(key) as Record<string, unknown>;
    const problems = problemsOf(filters);
    const ask = ++asked.current;
    if (Object.keys(problems).length > 0) {
      setState({ count: null, counting: false, problems });
      return;
    }
    setState((s) => ({ ...s, counting: true, problems }));
    const timer = setTimeout(() => {
      request<{ count: number }>('POST', '/v2/segments/count', { body: { filters }, merge: false }).then(
        ({ count }) => ask === asked.current && setState({ count, counting: false, problems: {} }),
        () => ask === asked.current && setState({ count: null, counting: false, problems: {} }),
      );
    }, SEGMENT_COUNT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return state;
}
