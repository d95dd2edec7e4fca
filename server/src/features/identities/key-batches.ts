/**
 * Concurrent key lookups share statements, as usage rows share writes (usage/metering.ts): at most MAX_RUNNING key
 * statements run at once on a database; lookups that arrive meanwhile wait, and the next statement carries all of
 * them (those asking for the same number of people per key), each taking back what its own keys found. Alone, a
 * lookup costs exactly one statement as before; under load, PostgreSQL and the driver see one statement for many
 * calls (decision 0017). Records come back as text and each lookup parses its own: callers never share objects (a
 * template may change the record it is given).
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';
import type { Database } from '../../db/client';
import type { IdentityJson, KeyHit } from './search';

/** Key statements running at once per database; more lookups wait and go together. */
export const MAX_RUNNING = 2;
/** Most keys one shared statement carries (a POST brings up to 1,000 alone); more wait for the next. */
export const MAX_KEYS = 1000;

export type Keys = Map<LookupKey, Set<string>>;

/** What a key statement found: the hits, and the stored record (JSON text) of each person hit that has one. */
export interface KeyRows {
  hits: KeyHit[];
  records: Map<number, string>;
}

/** What one lookup gets: the hits of its own keys, and the stored records of those people, its own objects. */
export interface KeyResult {
  hits: KeyHit[];
  records: Map<number, IdentityJson>;
}

export type RunKeys = (database: Database, keys: Keys, limit: number) => Promise<KeyRows>;

interface Waiting {
  keys: Keys;
  resolve(result: KeyResult): void;
  reject(error: unknown): void;
}

/** Lookups that will share one statement. */
interface Group {
  limit: number;
  size: number;
  waiting: Waiting[];
}

const sizeOf = (keys: Keys) => [...keys.values()].reduce((n, set) => n + set.size, 0);

/** What of `rows` belongs to a lookup of `keys`: the hits of its keys, and their people's records, parsed anew. */
function share(rows: KeyRows, keys: Keys): KeyResult {
  const hits = rows.hits.filter((h) => keys.get(h.kind)?.has(h.key));
  const records = new Map<number, IdentityJson>();
  for (const { id } of hits) {
    const text = rows.records.get(id);
    if (text !== undefined && !records.has(id)) records.set(id, JSON.parse(text) as IdentityJson);
  }
  return { hits, records };
}

function merge(waiting: Waiting[]): Keys {
  const keys: Keys = new Map();
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

  function settle(waiting: Waiting[], rows: KeyRows): void {
    for (const w of waiting) {
      try {
        w.resolve(share(rows, w.keys));
      } catch (error) {
        w.reject(error);
      }
    }
  }

  function start({ limit, waiting }: Group): void {
    running++;
    const keys = waiting.length === 1 ? waiting[0]!.keys : merge(waiting);
    Promise.resolve()
      .then(() => run(database, keys, limit))
      .then(
        (rows) => settle(waiting, rows),
        (error) => {
          for (const w of waiting) w.reject(error);
        },
      )
      .finally(() => {
        running--;
        const next = queue.shift();
        if (next) start(next);
      })
      .catch(() => {});
  }

  return {
    find(keys: Keys, limit: number): Promise<KeyResult> {
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
