/**
 * Lookup results as CSV. A template's output becomes columns by its keys, nested objects as dotted paths
 * (`finances.income`); a list of values, or the same key across a list of objects (`emails.address`), is one
 * column with the values joined by ';'. The columns are those the template gives a fully populated sample record
 * (so they are known before the first row, and a streamed reply can start at once), then any others the rows
 * show. One row per identity found; an input that found nobody still gets its row, with the identity columns empty.
 *
 * Lines are written by csv-stringify as RFC 4180 has them: CRLF after each, a field quoted when it holds a comma, a
 * quote or a line break (a lone CR too), quotes doubled. Every cell, the caller's own echoed back included, passes
 * the formula guard (docs/csv.md): one a spreadsheet would run as a formula gets a leading apostrophe.
 */
import { stringify } from 'csv-stringify/sync';
import { guardFormula } from '../../http/csv';
import type { CompiledTemplate } from '../templates/evaluate';
import type { LookupInput } from './inputs';

export const LIST_SEPARATOR = ';';

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Dotted paths of `value` and their cell text. */
export function flatten(value: unknown, prefix = '', out: Map<string, string> = new Map()): Map<string, string> {
  if (Array.isArray(value)) {
    // An empty list says nothing about columns (a list of objects would have named them); null likewise.
    if (value.length === 0) return out;
    if (value.every((v) => v === null || typeof v !== 'object')) {
      out.set(prefix, value.map(text).join(LIST_SEPARATOR));
      return out;
    }
    const columns = new Map<string, string[]>();
    value.forEach((item, i) => {
      for (const [key, cell] of flatten(item, prefix)) {
        const cells = columns.get(key) ?? [];
        cells[i] = cell;
        columns.set(key, cells);
      }
    });
    for (const [key, cells] of columns) {
      out.set(key, Array.from({ length: value.length }, (_, i) => cells[i] ?? '').join(LIST_SEPARATOR));
    }
    return out;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${key}` : key, out);
    return out;
  }
  if (prefix && value !== null && value !== undefined) out.set(prefix, text(value));
  return out;
}

/** The one formula guard of every CSV the product writes (issue 28, finding 11). */
export { guardFormula };

const STRINGIFY = { record_delimiter: '\r\n', quoted_match: /[\r\n]/, cast: { string: guardFormula } } as const;

/** One CSV line, its CRLF included. */
export const csvLine = (cells: readonly string[]): string => stringify([cells as string[]], STRINGIFY);

/**
 * The first line of a reply. @fastify/compress sniffs a reply's first bytes and passes through, unencoded yet
 * labelled as encoded, anything that starts like gzip or zlib data; a header row beginning with a caller's column
 * such as `H,` (0x48 0x2c) does. Such a line has every cell quoted, so it begins with a quote.
 */
export function headerLine(cells: readonly string[]): string {
  const line = csvLine(cells);
  return looksCompressed(Buffer.from(line.slice(0, 3), 'utf8'))
    ? stringify([cells as string[]], { ...STRINGIFY, quoted: true })
    : line;
}

/** The plugin's own tests (lib/utils.js): a gzip magic number, or a zlib header (RFC 1950). */
function looksCompressed(b: Buffer): boolean {
  if (b.length > 2 && b[0] === 0x1f && b[1] === 0x8b && b[2] === 0x08) return true;
  return b.length > 1 && (b[0]! & 0x0f) === 0x08 && (b[0]! & 0x80) === 0 && ((b[0]! << 8) + b[1]!) % 31 === 0;
}

/** An input's metadata as cells by key (null as empty). */
export function metadataCells(input: LookupInput): Map<string, string> {
  return new Map(Object.entries(input.metadata ?? {}).map(([key, value]) => [key, text(value)]));
}

const seen = { firstSeen: '2024-01-01', lastSeen: '2025-01-01' };
/** Every field of the identity record present, every list with one entry: what a template's columns are read from. */
export const SAMPLE_RECORD = {
  id: 1,
  firstName: 'Ada',
  middleName: 'M',
  lastName: 'Lovelace',
  suffix: '',
  gender: 'F',
  birthYear: 1980,
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  zip4: '0001',
  ...seen,
  emails: [{ address: 'ada@example.com', md5: '0'.repeat(32), sha256: '0'.repeat(64), ...seen }],
  phones: [{ number: '+12175550100', type: 'mobile', carrier: 'Carrier', doNotCall: false, ...seen }],
  ips: [{ ip: '192.0.2.1', ...seen }],
  devices: [{ deviceId: '00000000-0000-4000-8000-000000000001', type: 'idfa', ...seen }],
  vehicles: [{ vin: '1HGCM82633A004352', year: 2003, make: 'Honda', model: 'Accord', ...seen }],
  properties: [{ type: 'Single Family Residence', value: 250000, ownerOccupied: true, ...seen }],
  finances: { income: '$50K-$75K', netWorth: '$100K-$250K', credit: 'Good (670-739)' },
  companies: [{ name: 'Example Inc', domain: 'example.com', title: 'Engineer', ...seen }],
  behaviors: [{ category: 'Interests', name: 'Travel', ...seen }],
  data: {
    maritalStatus: 'Single',
    education: 'Bachelor',
    homeOwner: 'Owner',
    lengthOfResidence: '3',
    children: '0',
    language: 'English',
    veteran: 'No',
    pets: 'None',
    previousAddress: '2 Oak Ave',
    previousCity: 'Springfield',
    previousState: 'IL',
    previousZip: '62702',
  },
};

/** The template's columns as far as they can be known before any row: from its output for the sample record. */
export async function sampleColumns(template: CompiledTemplate): Promise<string[]> {
  try {
    return [...flatten(await template.apply(SAMPLE_RECORD, { detail: true })).keys()];
  } catch {
    // A template that fails on the sample may still work on real records; the rows will name its columns.
    return [];
  }
}

/** Columns in order: `first`, then any new ones as they appear in `rows`. */
export function unionColumns(first: readonly string[], rows: Iterable<Map<string, string>>): string[] {
  const columns = new Set(first);
  for (const row of rows) for (const key of row.keys()) columns.add(key);
  return [...columns];
}
