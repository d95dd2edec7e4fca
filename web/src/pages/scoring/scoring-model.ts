/**
 * The match model the lookups use, read from the very file the engine reads (server/src/features/scoring/
 * fitted-model.json, loaded by fitted.ts as FITTED_MODEL): the page can never drift from the engine. Only the JSON
 * is imported, no server code. What each level means is docs/scoring.md's table (comparisons.ts in code).
 */
import fitted from '../../../../server/src/features/scoring/fitted-model.json';

export const MODEL = { m: fitted.m, u: fitted.u, prior: fitted.prior };
export const FITTED_ON = fitted.fittedOn;
export const EVALUATION = fitted.evaluation;

export type Field = keyof typeof fitted.m;
export type Level = keyof (typeof fitted.m)['firstName'];

/** The fields compared, in the engine's order (comparisons.ts FIELDS, as the fitted file lists them). */
export const FIELDS = Object.keys(fitted.m) as Field[];
/** Agreement levels, strongest first; 'missing' (a field empty on either side) weighs nothing. */
export const LEVELS = Object.keys(fitted.m.firstName) as Level[];

export const FIELD_LABELS: Record<string, string> = {
  prior: 'Prior odds',
  firstName: 'First name',
  lastName: 'Last name',
  street: 'Street',
  city: 'City',
  state: 'State',
  zip: 'Zip',
  swap: 'Names swapped',
};

/** docs/scoring.md: what puts a field at each level; null where the level does not occur for that field. */
export const LEVEL_RULES: Record<Field, Record<Level, string | null>> = {
  firstName: {
    exact: 'same letters (case, accents and punctuation ignored)',
    alias: 'a nickname of the same formal name (Bob, Rob, Robert)',
    close: 'Jaro-Winkler similarity of 0.9 or more (a typo)',
    different: 'otherwise',
  },
  lastName: { exact: 'same letters', alias: null, close: 'Jaro-Winkler of 0.9 or more', different: 'otherwise' },
  street: {
    exact: 'same in USPS form (Street → ST, North → N), unit equal or absent on one side',
    alias: 'same street, different unit',
    close: 'Jaro-Winkler of 0.9 or more on the USPS form',
    different: 'otherwise',
  },
  city: { exact: 'same letters', alias: null, close: 'Jaro-Winkler of 0.9 or more', different: 'otherwise' },
  state: { exact: 'same', alias: null, close: null, different: 'otherwise' },
  zip: { exact: 'same five digits', alias: null, close: 'same first three digits', different: 'otherwise' },
};

/** Bits a level adds: log2(m / u). */
export const bitsOf = (field: Field, level: Level): number => Math.log2(MODEL.m[field][level] / MODEL.u[field][level]);
