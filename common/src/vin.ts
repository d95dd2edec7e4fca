/**
 * Vehicle identification numbers (ISO 3779, and the check digit and model-year rules of 49 CFR 565 for vehicles
 * sold in North America): 17 characters from digits and capitals without I, O and Q; position 9 is a check digit
 * over the others; position 10 codes the model year on a 30-year cycle.
 */

export const VIN_CHARACTERS = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';

/** Letters stand for the digits 1-9 in order, skipping I, O and Q, and restarting at J and at S. */
const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};

/** Weight of each position; position 9 (the check digit itself) weighs nothing. */
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** Model-year codes from 1980 (A) on: letters without I, O, Q, U, Z, then digits 1-9, repeating every 30 years. */
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

const SHAPE = /^[0-9A-HJ-NPR-Z]{17}$/;

const charValue = (ch: string) => (ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : TRANSLITERATION[ch]);

/** The check digit ('0'-'9' or 'X') for a 17-character VIN; position 9 is ignored. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = charValue(vin[i]!);
    if (v === undefined) throw new Error(`"${vin[i]}" cannot be in a VIN`);
    sum += v * WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** Upper case, spaces and dashes removed: what a lookup compares. */
export function normalizeVin(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/** True when the (normalized) value is 17 allowed characters with the right check digit. */
export function isValidVin(value: string): boolean {
  const vin = normalizeVin(value);
  return SHAPE.test(vin) && vin[8] === vinCheckDigit(vin);
}

/** The VIN with its check digit put in position 9. */
export function withCheckDigit(vin: string): string {
  if (vin.length !== 17) throw new Error('A VIN has 17 characters');
  return `${vin.slice(0, 8)}${vinCheckDigit(vin)}${vin.slice(9)}`;
}

/** The position-10 code of a model year (1980 and later). */
export function modelYearCode(year: number): string {
  if (!Number.isInteger(year) || year < 1980) throw new Error(`No model-year code for ${year}`);
  return YEAR_CODES[(year - 1980) % 30]!;
}

/**
 * The model year a VIN states. The code repeats every 30 years; for cars, MPVs and light trucks 49 CFR 565 puts
 * a letter in position 7 from 2010 on and a digit before, which tells the two cycles apart. Undefined for an
 * invalid code.
 */
export function modelYearOf(vin: string): number | undefined {
  const index = YEAR_CODES.indexOf(vin[9] ?? '');
  if (index < 0) return undefined;
  const laterCycle = /[A-Z]/.test(vin[6] ?? '');
  return (laterCycle ? 2010 : 1980) + index;
}
