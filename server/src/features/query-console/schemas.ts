/** Request bodies of the query console; limits from common/query-console.ts. */
import { QUERY_LIMITS } from '@tessera/common/query-console';
import { text } from '@tessera/common/schemas/fields';
import { z } from 'zod';

export const queryBody = z
  .object({
    cluster: text().min(1).max(40),
    sql: text().max(QUERY_LIMITS.sqlMaxChars, `The SQL may be at most ${QUERY_LIMITS.sqlMaxChars} characters.`),
    maxRows: z.coerce
      .number()
      .int()
      .min(1, 'The row cap must be at least 1.')
      .max(QUERY_LIMITS.maxRows, `The row cap may be at most ${QUERY_LIMITS.maxRows.toLocaleString('en-US')}.`)
      .default(QUERY_LIMITS.defaultMaxRows),
    /** Runs EXPLAIN of the statement instead. */
    explain: z.boolean().default(false),
    /** Chosen by the browser so it can cancel before the reply; one is made when absent. */
    runId: z.uuid().optional(),
  })
  .strict();

export type QueryBody = z.infer<typeof queryBody>;

export const cancelBody = z.object({ runId: z.uuid() }).strict();

export const savedBody = z
  .object({
    name: text()
      .trim()
      .min(1, 'Please provide a name.')
      .max(QUERY_LIMITS.savedNameMax, `The name may be at most ${QUERY_LIMITS.savedNameMax} characters.`),
    cluster: text().min(1).max(40),
    sql: text()
      .refine((v) => v.trim() !== '', 'Please provide a SQL statement.')
      .pipe(z.string().max(QUERY_LIMITS.sqlMaxChars)),
  })
  .strict();

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const schemaQuery = z.object({ cluster: text().min(1).max(40) });
