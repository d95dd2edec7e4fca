/** RFC 4180 fields of one CSV record: commas, double quotes, "" for a quote inside quotes. */

/** The fields of `text`, or null when a quoted field is still open (the record goes on on the next line). */
export function splitCsv(text: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '"' && field === '') quoted = true;
    else field += c;
  }
  if (quoted) return null;
  fields.push(field);
  return fields;
}

/** One field written for CSV: quoted when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
