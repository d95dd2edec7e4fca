/**
 * Entity tags of API keys and templates (issue 31): GET answers 304 to an If-None-Match naming the current tag, and
 * an edit sent with If-Match answers 412 when the item has changed since the tag was read. An item's version is its
 * `updatedAt`, which every change moves by at least a millisecond, so the console can send the version it loaded
 * from the item itself. A key's tag adds its usage figures after a dot (they change with calls, not edits): If-Match
 * compares the version alone, so a key in use can still be edited, while a 304 never hides a newer figure.
 */

/** The version part of a tag: the item's updatedAt in milliseconds, base 36. */
export function itemVersion(updatedAt: string): string {
  return Date.parse(updatedAt).toString(36);
}

/** The tag an edit form sends as If-Match: the version of the item it loaded. */
export function versionTag(item: { updatedAt: string }): string {
  return `"${itemVersion(item.updatedAt)}"`;
}

/** Quoted tags of an If-Match or If-None-Match value, or '*' for any; weak ones keep their W/ prefix. */
export function parseTags(value: string): string[] | '*' {
  if (value.trim() === '*') return '*';
  return value.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** If-None-Match (weak comparison): whether one of `value`'s tags is `current`. */
export function noneMatchHits(value: string, current: string): boolean {
  const tags = parseTags(value);
  return tags === '*' || tags.some((t) => t.replace(/^W\//, '') === current.replace(/^W\//, ''));
}

/**
 * If-Match: whether the edit may go ahead on an item whose version is `version`. Strong comparison (a weak tag never
 * matches), of the version part only.
 */
export function ifMatchHolds(value: string, version: string): boolean {
  const tags = parseTags(value);
  if (tags === '*') return true;
  return tags.some((t) => !t.startsWith('W/') && t.slice(1, -1).split('.')[0] === version);
}

export const STALE_MESSAGES = {
  key: 'This key was changed after you loaded it (elsewhere, or in another tab). Nothing was saved: reload it to see the change, then make yours again.',
  template:
    'This template was changed after you loaded it (elsewhere, or in another tab). Nothing was saved: reload it to see the change, then make yours again.',
} as const;
