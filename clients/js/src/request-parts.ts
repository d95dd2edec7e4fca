/** What a call's arguments become on the wire: usage queries, numeric ids as text, lookup options as parameters. */

/** A usage query's parameters as text; a Date as its ISO 8601 time. */
export function usageSearch(query: object): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  return search;
}

/** An id given as a number, as its decimal text (the API's form); past 2^53 a number has lost digits already. */
export function idText(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`An id given as a number must be a whole number below 2^53, not ${value}: give it as text.`);
  }
  return String(value);
}

/** A batch input with a numeric id (7, or { id: 7 }) as the API takes it: the id as text. */
export function batchInput(input: unknown): unknown {
  if (typeof input === 'number') return idText(input);
  if (input && typeof input === 'object' && typeof (input as { id?: unknown }).id === 'number') {
    return { ...input, id: idText((input as { id: number }).id) };
  }
  return input;
}

export function setOptions(query: URLSearchParams, options: object, names: readonly string[]) {
  const given = options as Record<string, unknown>;
  for (const name of names) {
    const value = given[name];
    if (value !== undefined && value !== null) query.set(name, String(value));
  }
}
