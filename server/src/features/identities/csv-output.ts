/**
 * Lookup results as CSV. A template's output becomes columns by its keys, nested objects as dotted paths
 * (`finances.income`); a list of values, or the same key across a list of objects (`emails.address`), is one
 * column with the values joined by ';'. The columns are those the template gives a fully populated sample record
 * (so they are known before the first row, and a streamed reply can start at once), then any others the rows
 * show. One row per identity found; an input that found nobody still gets its row, with the identity columns empty.
 */
import { csvField } from '../people/import/csv-fields';
import type { CompiledTemplate } from '../templates/evaluate';

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

export const csvLine = (cells: readonly string[]) => `${cells.map(csvField).join(',')}\r\n`;

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
    return [...flatten(await template.apply(SAMPLE_RECORD)).keys()];
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
