/**
 * RFC 4180 CSV as the API writes it (docs/lookups.md): commas, CRLF or LF, quoted fields holding commas, quotes
 * (doubled) and line breaks. Small enough to keep here; the replies are read whole or chunk by chunk.
 */

/** The rows of a CSV text; blank lines skipped. With `complete` false, a last row without its line end is held. */
export function parseCsv(text: string, complete = true): { rows: string[][]; rest: string } {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let rowStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (!(row.length === 1 && row[0] === '')) rows.push(row);
      row = [];
      field = '';
      rowStart = i + 1;
    } else field += c;
  }
  if (!complete) return { rows, rest: text.slice(rowStart) };
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return { rows, rest: '' };
}

/** A cell quoted when it must be (RFC 4180). */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
