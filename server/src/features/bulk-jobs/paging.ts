/**
 * The paging of a list by id, newest first (jobs, stored uploads): `limit` (1 to LIST_LIMIT.max) and `before`, the
 * public id of the last item of the page before, which must be one the viewer may see. A bad one answers 400 naming it.
 */
import { invalid } from '../identities/options';

export const LIST_LIMIT = { default: 20, max: 100 } as const;

export interface PageQuery {
  limit: number;
  /** The internal id items of the page are below, or null for the first page. */
  before: number | null;
}

export async function pageQuery(
  query: Record<string, unknown>,
  noun: string,
  /** The item `before` names, as the viewer may see it (its internal id), or null. */
  find: (publicId: string) => Promise<{ id: number | string } | null>,
): Promise<PageQuery> {
  const limit = query.limit === undefined ? LIST_LIMIT.default : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT.max) {
    const message = `Please give limit as a whole number from 1 to ${LIST_LIMIT.max}.`;
    throw invalid([{ path: 'querystring.limit', message }]);
  }
  if (query.before === undefined) return { limit, before: null };
  const after = await find(String(query.before));
  if (!after) {
    throw invalid([{ path: 'querystring.before', message: `Please give before as the id of ${noun} of the list.` }]);
  }
  return { limit, before: Number(after.id) };
}

/** A page of `limit + 1` rows read as the page and the `next` of the one after it. */
export function pageOf<R extends { public_id: string }>(rows: R[], limit: number): { page: R[]; next: string | null } {
  const page = rows.slice(0, limit);
  return { page, next: rows.length > limit ? page[page.length - 1]!.public_id : null };
}

/** Writes records in chunks of `chunkRows` as they are read; how many rows and chunks were written. */
export async function writeChunks<T>(
  records: AsyncIterator<T>,
  chunkRows: number,
  write: (chunk: number, records: T[]) => Promise<void>,
): Promise<{ rows: number; chunks: number }> {
  let chunk: T[] = [];
  let chunks = 0;
  let rows = 0;
  for (;;) {
    const next = await records.next();
    if (!next.done) chunk.push(next.value);
    if (chunk.length === chunkRows || (next.done && chunk.length > 0)) {
      await write(chunks, chunk);
      rows += chunk.length;
      chunks++;
      chunk = [];
    }
    if (next.done) return { rows, chunks };
  }
}
