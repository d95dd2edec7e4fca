/**
 * Concurrent key lookups share statements, as usage rows share writes (usage/metering.ts): at most MAX_RUNNING key
 * statements run at once on a database; lookups that arrive meanwhile wait, and the next statement carries all of
 * them (those asking for the same number of people per key), each taking back what its own keys found. Alone, a
 * lookup costs exactly one statement as before; under load, PostgreSQL and the driver see one statement for many
 * calls (decision 0017).
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';
import type { Database } from '../../db/client';
import type { IdentityJson, KeyHit } from './search';

/** Key statements running at once per database; more lookups wait and go together. */
export const MAX_RUNNING = 2;
/** Most keys one shared statement carries (a POST brings up to 1,000 alone); more wait for the next. */
export const MAX_KEYS = 1000;

export interface KeyResult {
  hits: KeyHit[];
  /** The records of the people hit that have a stored record, whole (not yet restricted to a caller's types). */
  records: Map<number, IdentityJson>;
}

export type RunKeys = (database: Database, keys: Map<LookupKey, Set<string>>, limit: number) => Promise<KeyResult>;

interface Waiting {
  keys: Map<LookupKey, Set<string>>;
  resolve(result: KeyResult): void;
  reject(error: unknown): void;
}

/** Lookups that will share one statement. */
interface Group {
  limit: number;
  size: number;
  waiting: Waiting[];
}

const sizeOf = (keys: Map<LookupKey, Set<string>>) => [...keys.values()].reduce((n, set) => n + set.size, 0);

/** What of `result` belongs to a lookup of `keys`: the hits of its keys. */
function share(result: KeyResult, keys: Map<LookupKey, Set<string>>): KeyResult {
  const hits = result.hits.filter((h) => keys.get(h.kind)?.has(h.key));
  return { hits, records: result.records };
}

function merge(waiting: Waiting[]): Map<LookupKey, Set<string>> {
  const keys = new Map<LookupKey, Set<string>>();
  for (const w of waiting) {
    for (const [kind, values] of w.keys) {
      const set = keys.get(kind) ?? new Set<string>();
      for (const v of values) set.add(v);
      keys.set(kind, set);
    }
  }
  return keys;
}

export function createKeyBatches(database: Database, run: RunKeys) {
  let running = 0;
  /** Groups waiting for a statement, first come first served. */
  const queue: Group[] = [];

  function start({ limit, waiting }: Group): void {
    running++;
    const keys = waiting.length === 1 ? waiting[0]!.keys : merge(waiting);
    run(database, keys, limit)
      .then(
        (result) => {
          for (const w of waiting) w.resolve(waiting.length === 1 ? result : share(result, w.keys));
        },
        (error) => {
          for (const w of waiting) w.reject(error);
        },
      )
      .finally(() => {
        running--;
        const next = queue.shift();
        if (next) start(next);
      });
  }

  return {
    find(keys: Map<LookupKey, Set<string>>, limit: number): Promise<KeyResult> {
      return new Promise((resolve, reject) => {
        const waiting = { keys, resolve, reject };
        const size = sizeOf(keys);
        if (running < MAX_RUNNING) return start({ limit, size, waiting: [waiting] });
        const group = queue.find((g) => g.limit === limit && g.size + size <= MAX_KEYS);
        if (group) {
          group.waiting.push(waiting);
          group.size += size;
        } else queue.push({ limit, size, waiting: [waiting] });
      });
    },
  };
}
