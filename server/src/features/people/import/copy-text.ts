/** Rows in PostgreSQL's COPY text format: tab-separated, \N for null, backslash escapes. */

function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

export function copyText(rows: unknown[][]): string {
  let out = '';
  for (const row of rows) out += `${row.map(field).join('\t')}\n`;
  return out;
}
