/** Replies are keyed objects (spec §7): items by id, merged into the client's data areas. */
export function keyed<T extends { id: number | string }>(items: Iterable<T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const item of items) out[String(item.id)] = item;
  return out;
}

/** What a deletion replies with: the item marked deleted, which removes it from the client's list. */
export function deleted<Id extends number | string>(
  id: Id,
  at: Date = new Date(),
): Record<string, { id: Id; deletedAt: string }> {
  return { [String(id)]: { id, deletedAt: at.toISOString() } };
}
