/**
 * The one money format of the console, the invoice PDF and CSV, and the server's messages (issue 32 item 11,
 * decision 0064): US dollars, '$' first (a minus before it), thousands separated by commas, at least two decimal
 * places and up to six (millionths of a dollar, the unit billing counts in). Never rounded to cents, so a line of
 * $0.0125 reads as priced and the lines of an invoice add up to its total as printed. Amounts stay exact: decimal
 * text is read digit by digit into integer millionths; a JSON number is rounded to the nearest millionth.
 */

export const CURRENCY = 'USD';
export const MONEY_DECIMALS = 6;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;
const SCALE = 1_000_000n;

/** Millionths of a dollar of decimal text ('12.340000', '-0.5', '3') or a number; null when it is neither. */
export function microsOfAmount(value: string | number): bigint | null {
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.round(value * 1e6)) : null;
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const [, minus, whole, fraction = ''] = m;
  // Half up at the seventh place: text from the database never has one, a computed share may.
  const round = fraction.length > MONEY_DECIMALS && fraction.charCodeAt(MONEY_DECIMALS) >= 53 ? 1n : 0n;
  const micros = BigInt(whole!) * SCALE + BigInt(`${fraction}000000`.slice(0, MONEY_DECIMALS)) + round;
  return minus ? -micros : micros;
}

/** Millionths of a dollar in the money format: 1234500000n → '$1,234.50'. */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const m = negative ? -micros : micros;
  const whole = (m / SCALE).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (m % SCALE).toString().padStart(MONEY_DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}$${whole}.${fraction}`;
}

/** An amount (decimal text or a number of dollars) in the money format; '' for nothing or what is not an amount. */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const micros = microsOfAmount(value);
  return micros === null ? '' : formatMicros(micros);
}
