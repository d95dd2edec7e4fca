/** Reading the store's keyed collections (spec §3) from components without a new array on every render. */
import { useMemo } from 'react';
import { useStore } from './store';

type Area = 'organizations' | 'users' | 'sessions';

/** Every item of a collection area, in the order `compare` gives. */
export function useCollection<T>(area: Area, compare?: (a: T, b: T) => number): T[] {
  const items = useStore((s) => s.areas[area]) as Record<string, T> | undefined;
  return useMemo(() => {
    const list = Object.values(items ?? {});
    return compare ? list.sort(compare) : list;
  }, [items, compare]);
}

/** One item of a collection area by id; undefined until it arrives. */
export function useItem<T>(area: Area, id: number | undefined): T | undefined {
  return useStore((s) =>
    id === undefined ? undefined : ((s.areas[area] as Record<string, T> | undefined)?.[String(id)] ?? undefined),
  );
}

export const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
