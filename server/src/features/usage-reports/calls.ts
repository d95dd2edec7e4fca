/**
 * The calls of a usage report (issue 16): usage rows in the range with the report's filters, sorted, paged by
 * keyset (the sort value and the id of the page's last row, in an opaque `after` cursor), so a page costs the same
 * wherever it is. The CSV export walks the same pages, so it runs in constant memory however many rows there are.
 * Each call carries the names of its user, organization and key (issue 32), joined onto the page's rows in the same
 * statement and only where the viewer may see them (`NameScope`): a name outside that is null.
 */
import { Readable } from 'node:stream';
import { CALL_METRICS, callLabel, metricColumn, USAGE_MESSAGES, type UsageCall } from '@tessera/common/usage';
import type { Database } from '../../db/client';
import { stringify } from '../../http/csv';
import { BadRequest } from '../../http/errors';
import { filterConditions, Params } from './filters';
import type { ReportQuery } from './query';
import type { Who } from './scope';

const SELECT = `select id, at, user_id as "userId", organization_id as "organizationId", key_id as "keyId", method,
  path, status, (extract(epoch from at) * 1000000)::bigint as "atMicros", ${CALL_METRICS.map((m) => `${metricColumn(m)} as "${m}"`).join(', ')}, cost::float8 as cost`;

type Row = Omit<UsageCall, 'at' | 'id'> & { at: Date | string; id: number | string; atMicros: number | string };

/**
 * Whose names a viewer may read (the console's own rules): super and root anyone's; others their own, their
 * organization's members' and organization's, and the keys they may manage (their own; an administrator's, the
 * organization's). Calls in a report are already in the viewer's scope, but a call's user may since have moved to
 * another organization, and a key to another owner: their names then stay hidden.
 */
export interface NameScope {
  across: boolean;
  userId: number;
  organizationId: number | null;
  admin: boolean;
}

/** The page's calls with the names joined on (the page is chosen first, so only its rows are joined). */
function withNames(page: string, names: NameScope, params: Params): string {
  const across = params.add(names.across, 'boolean');
  const self = params.add(names.userId, 'int');
  const organization = params.add(names.organizationId, 'int');
  const admin = params.add(names.admin, 'boolean');
  return `select c.*, coalesce(nullif(u.name, ''), u.email) as "userName", o.name as "organizationName",
    k.name as "keyName"
  from (${page}) c
  left join users u on u.id = c."userId" and (${across} or u.id = ${self} or u.organization_id = ${organization})
  left join organizations o on o.id = c."organizationId" and (${across} or o.id = ${organization})
  left join api_keys k on k.id = c."keyId"
    and (${across} or k.user_id = ${self} or (${admin} and k.organization_id = ${organization}))`;
}

/** A call, and the exact sort value of its time (microseconds: an ISO string holds only milliseconds). */
const toCall = ({ atMicros, ...row }: Row): UsageCall & { atMicros: number } => ({
  ...row,
  id: Number(row.id),
  at: new Date(row.at).toISOString(),
  atMicros: Number(atMicros),
});

const columnOf = (field: string) => (field === 'at' || field === 'cost' ? field : metricColumn(field));
/** The cursor's value as SQL: a time travels as whole microseconds since the epoch. */
function cursorValue(field: string, value: number, params: Params): string {
  if (field === 'at') return `('epoch'::timestamptz + ${params.add(value, 'bigint')} * interval '1 microsecond')`;
  return params.add(value, field === 'cost' ? 'numeric' : 'int');
}

/** The sort it was made for ('-at', 'identities'), the last row's sort value and its id. */
type Cursor = [sort: string, value: number, id: number];

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

const INT_MAX = 2_147_483_647;
/** Whether a sort value fits its column: whole microseconds for a time, an int for a metric, any number for cost. */
function fits(field: string, value: number): boolean {
  if (field === 'at') return Number.isSafeInteger(value);
  if (field === 'cost') return Number.isFinite(value) && Math.abs(value) < 1e12;
  return Number.isSafeInteger(value) && Math.abs(value) <= INT_MAX;
}

/** A cursor this report gave, for this sort; anything else (tampered, stale, from another sort) is a 400. */
function decodeCursor(text: string, sort: string, field: string): [value: number, id: number] {
  const bad = () =>
    new BadRequest(USAGE_MESSAGES.cursor, [{ path: 'querystring.after', message: USAGE_MESSAGES.cursor }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== sort) throw bad();
  const [, value, id] = parsed as [string, unknown, unknown];
  if (typeof value !== 'number' || !fits(field, value)) throw bad();
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw bad();
  return [value, id];
}

/** One page of calls and the cursor of the next (null on the last page). */
export async function callsPage(
  database: Database,
  query: ReportQuery,
  who: Who,
  names: NameScope,
): Promise<{ calls: UsageCall[]; next: string | null }> {
  const { field, descending } = query.sort;
  const params = new Params();
  const conditions = [
    ...filterConditions(who, query, params),
    `at >= ${params.add(query.from.toISOString(), 'timestamptz')}`,
    `at < ${params.add(query.to.toISOString(), 'timestamptz')}`,
  ];
  const column = columnOf(field);
  const sort = `${descending ? '-' : ''}${field}`;
  if (query.after) {
    const [value, id] = decodeCursor(query.after, sort, field);
    conditions.push(
      `(${column}, id) ${descending ? '<' : '>'} (${cursorValue(field, value, params)}, ${params.add(id, 'bigint')})`,
    );
  }
  const order = descending ? 'desc' : 'asc';
  const chosen = `${SELECT} from usage where ${conditions.join(' and ')} order by ${column} ${order}, id ${order}
     limit ${params.add(query.pageSize + 1, 'int')}`;
  const rows = await database.query<Row>(
    `${withNames(chosen, names, params)} order by c."${field}" ${order}, c.id ${order}`,
    params.values,
  );
  const page = rows.slice(0, query.pageSize).map(toCall);
  const last = page.at(-1);
  const more = rows.length > query.pageSize && last !== undefined;
  const next = more
    ? encodeCursor([sort, field === 'at' ? last.atMicros : (last[field as keyof UsageCall] as number), last.id])
    : null;
  return { calls: page.map(({ atMicros: _, ...call }) => call), next };
}

/**
 * The CSV header: a column for everything a call has. The names and the call as the console labels it (issue 32)
 * come last, so a reader of the earlier columns by position still reads them.
 */
export const CSV_COLUMNS = [
  'at',
  'userId',
  'organizationId',
  'keyId',
  'method',
  'path',
  'status',
  ...CALL_METRICS,
  'cost',
  'userName',
  'organizationName',
  'keyName',
  'call',
] as const;

/** Every call of the report as CSV, read page by page (1,000 rows a statement). */
export function callsCsv(database: Database, query: ReportQuery, who: Who, names: NameScope): Readable {
  async function* rows() {
    let after: string | undefined;
    do {
      const page = await callsPage(database, { ...query, pageSize: 1000, after }, who, names);
      for (const call of page.calls) yield { ...call, call: callLabel(call.path, call.method) };
      after = page.next ?? undefined;
    } while (after);
  }
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' });
  const source = Readable.from(rows());
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
