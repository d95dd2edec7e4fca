/**
 * Spec §2 resource route pattern on the API: `{id}` in a resource's GET is one id or a comma-separated list of them
 * (`/v2/organizations/3,4`). The list is read by common/routes.ts's parseIdList (the console reads its paths with
 * the same rule), duplicates dropped, at most 100. Each id is checked for the caller exactly as a single GET checks
 * it, and one out of reach refuses the whole list the way that single GET would: a caller learns nothing about
 * another organization's records by listing them beside their own.
 */
import { parseIdList } from '@tessera/common/routes';
import { z } from 'zod';

export const ID_LIST_MAX = 100;
export const ID_LIST_MESSAGE = 'Please provide one or more numeric ids, separated by commas.';

/** `{id}`: one numeric id or a comma-separated list of them. */
export const idListParams = z.object({
  id: z.string().transform((value, ctx) => {
    const ids = parseIdList(value);
    if (!ids || ids.length > ID_LIST_MAX || ids.some((id) => id < 1 || id > 2_147_483_647)) {
      ctx.addIssue({ code: 'custom', message: ID_LIST_MESSAGE });
      return z.NEVER;
    }
    return [...new Set(ids)];
  }),
});

/** Reads each id in turn with the single GET's own reader (and its checks); the first refusal refuses the list. */
export async function eachOf<Id, T>(ids: Id[], read: (id: Id) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (const id of ids) out.push(await read(id));
  return out;
}
