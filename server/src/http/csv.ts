/**
 * The one formula guard for every CSV the product writes (decision 0025; issue 28 finding 11): lookups, streamed
 * PUTs, segment exports, template previews, invoices, usage calls and the query console. A cell a spreadsheet would
 * run as a formula gets a leading apostrophe, shown as text and never run. Writers use csv-stringify through
 * `stringify` (streaming) or `stringifyRows` (whole), which guard every text cell, the header's included.
 */
import { type Options, type Stringifier, stringify as stringifyStream } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/**
 * Characters a spreadsheet reads a cell as a formula by, when the cell begins with one (OWASP, CSV injection): the
 * ASCII ones, `|` (DDE in older Excel) and the full-width forms some spreadsheets fold to ASCII.
 */
const FORMULA_START = /^[=+\-@\t\r|\uff1d\uff0b\uff0d\uff20]/;
/** Spaces some spreadsheets skip before reading a formula (plain, no-break, other Unicode spaces, BOM). */
const LEADING_SPACE = /^[ \u00a0\u1680\u2000-\u200b\u202f\u205f\u3000\ufeff]+/;
/** A signed number or phone number: digits, spaces and . , ( ) + - only, which cannot call anything. */
const PLAIN_NUMBER = /^[+-][0-9 ().,+-]*$/;

const risky = (text: string) => FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);

/**
 * The cell as a spreadsheet may safely open it: one beginning, after any leading spaces, with = + - @ | TAB or CR
 * (or a full-width = + - @) gets a leading apostrophe (shown by spreadsheets as text, not run), unless it is a
 * signed number or phone number such as -12.5 or +1 (415) 555-0100, which holds no letters and so no function or
 * link to call.
 */
export function guardFormula(cell: string): string {
  return risky(cell) || risky(cell.replace(LEADING_SPACE, '')) ? `'${cell}` : cell;
}

/** The options with every text cell guarded (after the caller's own cast of text, if any). */
function guarded(options: Options = {}): Options {
  const own = options.cast?.string;
  return {
    ...options,
    cast: {
      ...options.cast,
      string: (value, context) => {
        const cast = own ? own(value, context) : value;
        if (typeof cast === 'string') return guardFormula(cast);
        return cast && { ...cast, value: guardFormula(cast.value) };
      },
    },
  };
}

/** csv-stringify's streaming writer, every text cell guarded. */
export const stringify = (options?: Options): Stringifier => stringifyStream(guarded(options));

/** Rows as CSV text, every text cell guarded. */
export const stringifyRows = (rows: unknown[][], options?: Options): string => stringifySync(rows, guarded(options));
