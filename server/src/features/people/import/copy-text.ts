/** Rows in PostgreSQL's COPY text format: tab-separated, \N for null, backslash escapes. */
import type { IdentityRecord } from '../record';
import { forEachRow, LINKED_TABLES, type Table } from './rows';

const SPECIAL = /[\\\t\n\r]/;

/** One value as a COPY text field. */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

/** One row as a COPY text line, newline included. */
export function copyLine(row: readonly unknown[]): string {
  let line = copyField(row[0]);
  for (let i = 1; i < row.length; i++) line += `\t${copyField(row[i])}`;
  return `${line}\n`;
}

export function copyText(rows: unknown[][]): string {
  let out = '';
  for (const row of rows) out += copyLine(row);
  return out;
}

/** Node 20 has String.prototype.isWellFormed; the ES2022 lib the server compiles against does not name it. */
const wellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * Throws when `text` holds half of a UTF-16 surrogate pair (JSON can spell one, "\ud800"). Encoding such text
 * for COPY would silently turn it into U+FFFD; a JSON parameter made PostgreSQL refuse it, and so does this.
 */
export function assertWellFormed(text: string): void {
  if (!wellFormed(text)) throw new Error('invalid Unicode: a lone UTF-16 surrogate (e.g. "\\ud800") in the text');
}

/** The tables a person's COPY text is split into: `people`, then the linked tables in writing order. */
export const COPY_TABLES: readonly Table[] = ['people', ...LINKED_TABLES];
const COPY_INDEX = new Map(COPY_TABLES.map((t, i) => [t, i]));

/** A person's rows as COPY text, one string per table of COPY_TABLES ('' for none). */
export function personCopy(record: IdentityRecord): string[] {
  const parts = COPY_TABLES.map(() => '');
  forEachRow(record, (table, row) => {
    const i = COPY_INDEX.get(table)!;
    parts[i] += copyLine(row);
  });
  return parts;
}
