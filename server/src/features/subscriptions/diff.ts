/**
 * What a change did to a record (decision 0067): the paths of its leaves (`emails[0].address`, `finances.income`)
 * added, changed or removed between the old record and the new, each as the subscription's key may see it. A path is
 * only named, never its value: the event's record carries the new values, shaped by the template.
 */
import type { SubscriptionChanges } from '@tessera/common/subscriptions';

type Leaves = Map<string, string>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf of `value` under `path`, its value as JSON text; an empty object or list has none. */
function leaves(value: unknown, path: string, out: Leaves): Leaves {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      leaves(item, `${path}[${i}]`, out);
    });
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) leaves(item, path ? `${path}.${key}` : key, out);
  } else if (path) {
    out.set(path, JSON.stringify(value ?? null));
  }
  return out;
}

/** The paths added, changed and removed from `before` (null: no record) to `after`, each list sorted. */
export function recordChanges(before: unknown, after: unknown): SubscriptionChanges {
  const old = leaves(before ?? {}, '', new Map());
  const now = leaves(after ?? {}, '', new Map());
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [path, value] of now) {
    const was = old.get(path);
    if (was === undefined) added.push(path);
    else if (was !== value) changed.push(path);
  }
  for (const path of old.keys()) if (!now.has(path)) removed.push(path);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

export const isEmpty = (c: SubscriptionChanges) => c.added.length + c.changed.length + c.removed.length === 0;
