/**
 * The SQL conditions of a report's filters, shared by the series, the totals and the calls. Values always travel
 * as parameters; only column names chosen from fixed lists are written into the text.
 */
import type { ReportQuery } from './query';
import type { Who } from './scope';

/** Collects a statement's parameters and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

/** The who, method and path conditions (the range is the caller's, as sources differ in it). */
export function filterConditions(who: Who, query: ReportQuery, params: Params): string[] {
  const out: string[] = [];
  if (who.userId !== undefined) out.push(`user_id = ${params.add(who.userId, 'int')}`);
  if (who.organizationId !== undefined) out.push(`organization_id = ${params.add(who.organizationId, 'int')}`);
  if (who.keyId !== undefined) out.push(`key_id = ${params.add(who.keyId, 'text')}`);
  if (query.method !== '*') out.push(`method = ${params.add(query.method, 'text')}`);
  if (query.path !== '*') out.push(`path = ${params.add(query.path, 'text')}`);
  return out;
}
