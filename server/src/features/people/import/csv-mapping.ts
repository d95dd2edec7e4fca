/**
 * The CSV shape of an identity record (docs/identity-record.md, "Importing CSV"): a header of the record's own
 * field names for the person (`id`, `firstName`, ...), dotted paths for linked records numbered from 0
 * (`emails.0.address`, `phones.1.number`, `finances.income`) and `data.KEY` for demographic attributes. A linked
 * record exists when any of its columns is filled; its empty dates default to the person's own.
 */
import {
  behaviorSchema,
  companySchema,
  deviceSchema,
  emailSchema,
  financesSchema,
  identityRecordSchema,
  ipSchema,
  phoneSchema,
  propertySchema,
  vehicleSchema,
} from '../record';

const LISTS = {
  emails: emailSchema,
  phones: phoneSchema,
  ips: ipSchema,
  devices: deviceSchema,
  vehicles: vehicleSchema,
  properties: propertySchema,
  companies: companySchema,
  behaviors: behaviorSchema,
} as const;
type ListName = keyof typeof LISTS;

const LIST_FIELDS = Object.fromEntries(
  Object.entries(LISTS).map(([name, schema]) => [name, new Set(Object.keys(schema.shape))]),
) as Record<ListName, Set<string>>;
const LINKED = new Set(['data', 'finances', ...Object.keys(LISTS)]);
const SCALARS = new Set(Object.keys(identityRecordSchema.shape).filter((k) => !LINKED.has(k)));
const FINANCE_FIELDS = new Set(Object.keys(financesSchema.unwrap().shape));
const INTEGERS = new Set(['id', 'birthYear', 'year', 'value']);
const BOOLEANS = new Set(['doNotCall', 'ownerOccupied']);

type Column =
  | { kind: 'scalar'; field: string }
  | { kind: 'list'; list: ListName; index: number; field: string }
  | { kind: 'finances'; field: string }
  | { kind: 'data'; key: string };

export class CsvHeaderError extends Error {}

/** The meaning of each header column; a CsvHeaderError for a column that is not part of the record. */
export function csvColumns(header: string[]): Column[] {
  const seen = new Set<string>();
  const columns = header.map((raw): Column => {
    const name = raw.trim();
    if (seen.has(name)) throw new CsvHeaderError(`column "${name}" appears twice`);
    seen.add(name);
    if (SCALARS.has(name)) return { kind: 'scalar', field: name };
    const parts = name.split('.');
    if (parts[0] === 'data' && parts.length >= 2 && parts.slice(1).join('.') !== '') {
      return { kind: 'data', key: parts.slice(1).join('.') };
    }
    if (parts[0] === 'finances' && parts.length === 2 && FINANCE_FIELDS.has(parts[1]!)) {
      return { kind: 'finances', field: parts[1]! };
    }
    const list = parts[0] as ListName;
    if (parts.length === 3 && list in LISTS && /^\d{1,3}$/.test(parts[1]!) && LIST_FIELDS[list].has(parts[2]!)) {
      return { kind: 'list', list, index: Number(parts[1]), field: parts[2]! };
    }
    throw new CsvHeaderError(`unknown column "${name}"`);
  });
  if (!seen.has('id')) throw new CsvHeaderError('no "id" column');
  return columns;
}

function typed(field: string, text: string): unknown {
  if (INTEGERS.has(field))
    return text === '' ? (field === 'id' ? text : null) : /^-?\d+$/.test(text) ? Number(text) : text;
  if (BOOLEANS.has(field)) {
    const t = text.toLowerCase();
    if (t === '' || t === 'false' || t === '0' || t === 'no') return false;
    if (t === 'true' || t === '1' || t === 'yes') return true;
    return text;
  }
  return text;
}

/** A record-shaped object (checked afterwards by the record schema) from one row's fields. */
export function csvRecord(columns: Column[], fields: string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {
    ...Object.fromEntries([...SCALARS].map((k) => [k, typed(k, '')])),
    firstSeen: '',
    lastSeen: '',
  };
  const lists: Record<string, Map<number, Record<string, string>>> = {};
  const finances: Record<string, string> = {};
  const data: Record<string, string> = {};
  columns.forEach((column, i) => {
    const text = fields[i] ?? '';
    if (column.kind === 'scalar') record[column.field] = typed(column.field, text);
    else if (column.kind === 'data') {
      if (text !== '') data[column.key] = text;
    } else if (column.kind === 'finances') finances[column.field] = text;
    else if (text !== '') {
      const items = lists[column.list] ?? new Map<number, Record<string, string>>();
      lists[column.list] = items;
      const item = items.get(column.index) ?? {};
      items.set(column.index, item);
      item[column.field] = text;
    }
  });
  for (const name of Object.keys(LISTS) as ListName[]) {
    const items = [...(lists[name]?.entries() ?? [])].sort(([a], [b]) => a - b);
    record[name] = items.map(([, given]) => {
      const item: Record<string, unknown> = {};
      for (const field of LIST_FIELDS[name]) item[field] = typed(field, given[field] ?? '');
      if (item.firstSeen === '') item.firstSeen = record.firstSeen;
      if (item.lastSeen === '') item.lastSeen = record.lastSeen;
      return item;
    });
  }
  const anyFinance = Object.values(finances).some((v) => v !== '');
  record.finances = anyFinance ? Object.fromEntries([...FINANCE_FIELDS].map((f) => [f, finances[f] ?? ''])) : null;
  record.data = data;
  return record;
}
