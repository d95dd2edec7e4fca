/**
 * The rows of a CSV lookup, shared by the streamed PUT (csv-stream.ts) and bulk jobs (features/bulk-jobs): the header
 * and which of its columns are inputs, each row read as an input or a problem, a batch looked up, and the reply's
 * columns and lines, so a job answers a row exactly as the PUT does.
 */
import { type InputName, LOOKUP_ENDPOINTS, type LookupEndpoint } from '@tessera/common/lookups';
import type { emptyMetrics } from '@tessera/common/usage';
import { BadRequest } from '../../http/errors';
import type { AuditedInput } from '../lookup-audit/entries';
import type { CsvRecord } from './csv-input';
import { csvLine, flatten, sampleColumns, unionColumns } from './csv-output';
import type { Match } from './engine';
import { type LookupInput, parseInput } from './inputs';
import { countInput } from './metrics';
import { auditOf, type LookupDeps, lookupAndShape, type Prepared, TemplateFailure } from './service';

/** Rows looked up together: one search per key type for all of them. */
export const STREAM_BATCH = 500;
export const ERROR_COLUMN = 'error';

export const STREAM_MESSAGES = {
  body: 'Please PUT a CSV body (Content-Type: text/csv) with a header row naming its input columns.',
  header: 'The CSV needs a header row naming its input columns.',
  noInputs: (endpoint: string) =>
    `The header names no input of ${endpoint}; its inputs are ${LOOKUP_ENDPOINTS[endpoint as LookupEndpoint].join(', ')} (other columns are passed through).`,
  delimiter: (header: string) =>
    `The header is one column, ${JSON.stringify(header)}: fields are separated by commas (RFC 4180), not semicolons or tabs.`,
  repeated: (name: string) => `Column ${name} appears more than once.`,
  reserved: (name: string) =>
    `Column ${name} is a column of the reply (score, matchedOn, error): rename yours, so the two cannot be mistaken.`,
  carriageReturns:
    'The rows end with a carriage return alone (an old Mac export): please save the CSV with CRLF or LF line ends.',
  width: (got: number, want: number) => `The row has ${got} fields; the header has ${want}.`,
  drained: 'Not looked up: the server is restarting. Send this row and the rows after it again.',
  failed: 'Not looked up: the database could not be reached. Send this row and the rows after it again.',
  expansion: 'The compressed body decompresses to over 200 times its size; send it uncompressed or in smaller parts.',
} as const;

export interface Row {
  record: CsvRecord;
  input?: LookupInput;
  error?: string;
}

/** The header's column names and which of them are inputs; the others are passed through. */
export interface Header {
  names: string[];
  inputs: { name: string; index: number }[];
}

/** Columns every PUT reply has: a passed-through column of the same name would be read in their place. */
const RESERVED_COLUMNS: readonly string[] = ['score', 'matchedOn', 'error'];

export function headerOf(record: CsvRecord | undefined, endpoint: LookupEndpoint): Header {
  if (!record || record.error !== undefined)
    throw new BadRequest(STREAM_MESSAGES.header, [{ path: 'body', message: STREAM_MESSAGES.header }]);
  const names = record.fields.map((f) => f.trim());
  // A bare CR ends no record, so such a file arrives as one long header holding every row.
  if (names.some((name) => name.includes('\r'))) {
    throw new BadRequest(STREAM_MESSAGES.carriageReturns, [{ path: 'body', message: STREAM_MESSAGES.carriageReturns }]);
  }
  const allowed = LOOKUP_ENDPOINTS[endpoint] as readonly InputName[];
  const seen = new Set<string>();
  for (const name of names) {
    if (RESERVED_COLUMNS.includes(name)) {
      const message = STREAM_MESSAGES.reserved(name);
      throw new BadRequest(message, [{ path: `body.header.${name}`, message }]);
    }
    // Empty names (a trailing comma, a spreadsheet's index column) may repeat: they are passed through.
    if (name && seen.has(name)) {
      const message = STREAM_MESSAGES.repeated(name);
      throw new BadRequest(message, [{ path: `body.header.${name}`, message }]);
    }
    seen.add(name);
  }
  const inputs = names
    .map((name, index) => ({ name, index }))
    .filter(({ name }) => (allowed as readonly string[]).includes(name));
  if (inputs.length === 0) {
    const only = names.length === 1 ? names[0]! : null;
    const message =
      only !== null && /[;\t]/.test(only) ? STREAM_MESSAGES.delimiter(only) : STREAM_MESSAGES.noInputs(endpoint);
    throw new BadRequest(message, [{ path: 'body.header', message }]);
  }
  return { names, inputs };
}

/** A row's problem, led by its line in the body (the header is line 1) so it can be found. */
export const problem = (record: CsvRecord, text: string) => `line ${record.line}: ${text}`;

function toRow(record: CsvRecord, header: Header, endpoint: LookupEndpoint): Row {
  if (record.error !== undefined) return { record, error: problem(record, record.error) };
  if (record.fields.length !== header.names.length) {
    return { record, error: problem(record, STREAM_MESSAGES.width(record.fields.length, header.names.length)) };
  }
  const named = Object.fromEntries(header.inputs.map(({ name, index }) => [name, record.fields[index]]));
  const parsed = parseInput(endpoint, named, '');
  if (parsed.errors)
    return { record, error: problem(record, parsed.errors.map((e) => `${e.path}: ${e.message}`).join(' ')) };
  return { record, input: parsed.input };
}

export async function readBatch(
  records: AsyncIterator<CsvRecord>,
  header: Header,
  endpoint: LookupEndpoint,
): Promise<Row[]> {
  const rows: Row[] = [];
  while (rows.length < STREAM_BATCH) {
    const next = await records.next();
    if (next.done) break;
    rows.push(toRow(next.value, header, endpoint));
  }
  return rows;
}

/** A batch's rows looked up (lookUp), each with the identities it found, flattened. */
export type LookedUp = { row: Row; identities: Map<string, string>[] };

/** The batch's rows with their identities flattened, or every row failed with the template's error. */
export async function lookUp(
  deps: LookupDeps,
  prepared: Prepared,
  rows: Row[],
  metrics: ReturnType<typeof emptyMetrics>,
  audit: AuditedInput[],
): Promise<LookedUp[]> {
  const valid = rows.filter((r) => r.input);
  const inputs = valid.map((r) => r.input!);
  // What the template saw is counted and audited even when it failed on it: the failure is the records' to tell.
  const counted = async (matches: Match[][]) => {
    for (const m of matches) countInput(metrics, m);
    const audited = await auditOf(deps, inputs, matches, metrics.inputs - inputs.length);
    for (const a of audited) audit.push(a);
  };
  let found: Awaited<ReturnType<typeof lookupAndShape>>;
  try {
    found = await lookupAndShape(deps, prepared, inputs);
  } catch (error) {
    if (error instanceof TemplateFailure) await counted(error.matches);
    throw error;
  }
  const { matches, shaped } = found;
  const byRow = new Map(valid.map((r, i) => [r, i]));
  await counted(matches);
  return rows.map((row) => {
    const i = byRow.get(row);
    return { row, identities: i === undefined ? [] : shaped[i]!.map((identity) => flatten(identity)) };
  });
}

/** The columns of a reply: the template's, and those of the identities of its first batch (fixed from then on). */
export async function replyColumns(prepared: Prepared, first: LookedUp[]): Promise<string[]> {
  return unionColumns(
    ['score', 'matchedOn', ...(await sampleColumns(prepared.template.compiled))],
    first.flatMap((r) => r.identities),
  );
}

/** A batch's reply lines: each row's cells as sent, then an identity's columns (a line per identity), then its error. */
export function csvLines(header: Header, columns: string[], batch: LookedUp[], error?: string): string {
  let out = '';
  for (const { row, identities } of batch) {
    const { record } = row;
    // Every column as sent, inputs and passed-through ones alike.
    const inputCells = header.names.map((_, i) => (record.error === undefined ? (record.fields[i] ?? '') : ''));
    const reason = error && row.input ? problem(record, error) : (row.error ?? '');
    if (identities.length === 0) out += csvLine([...inputCells, ...columns.map(() => ''), reason]);
    for (const identity of identities) {
      out += csvLine([...inputCells, ...columns.map((c) => identity.get(c) ?? ''), reason]);
    }
  }
  return out;
}
