/**
 * The cells of a row from the text PostgreSQL writes for a record (record_out), which is how the console's
 * run() function hands rows back: `(1,"a,b",,"")` is ['1', 'a,b', null, '']. Each cell is its column's own
 * text output. A cell is quoted when it is empty or holds a quote, backslash, parenthesis, comma or space, with
 * `"` and `\` doubled inside; NULL is nothing at all. One NULL column and no column both read `()`: `width`
 * (the statement's column count) tells them apart.
 */
export type Cell = string | null;

const SPECIAL = /["\\]/g;

export function rowCells(literal: string, width: number): Cell[] {
  if (width === 0) return [];
  if (literal[0] !== '(' || literal.at(-1) !== ')') throw new Error('A row did not come back as a record.');
  const end = literal.length - 1;
  const cells: Cell[] = [];
  let i = 1;
  for (;;) {
    if (literal[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        SPECIAL.lastIndex = i;
        const found = SPECIAL.exec(literal);
        if (!found || found.index >= end) throw new Error('A quoted cell of a row was not closed.');
        value += literal.slice(i, found.index);
        i = found.index;
        if (literal[i] === '\\' || literal[i + 1] === '"') {
          value += literal[i + 1];
          i += 2;
          continue;
        }
        i += 1;
        break;
      }
      cells.push(value);
    } else {
      const comma = literal.indexOf(',', i);
      const stop = comma === -1 || comma > end ? end : comma;
      cells.push(stop === i ? null : literal.slice(i, stop));
      i = stop;
    }
    if (i >= end) break;
    i += 1; // the comma
  }
  if (cells.length !== width) throw new Error(`A row came back with ${cells.length} cells for ${width} columns.`);
  return cells;
}
