/**
 * Issue 4 lookup inputs: each key normalized the one way the graph stores it, or null when it is malformed. The
 * server answers a malformed input with 400 naming the field and its message; the playground checks the same way.
 */
import { isAnyEmail } from './validation';
import { isValidVin, normalizeVin } from './vin';

export const LOOKUP_MESSAGES = {
  email: 'Please provide a valid email address.',
  phone: 'Please provide a phone number with its area code, or in international form starting with +.',
  md5: 'Please provide an MD5 hash: 32 hexadecimal digits.',
  sha256: 'Please provide a SHA-256 hash: 64 hexadecimal digits.',
  ip: 'Please provide an IPv4 or IPv6 address.',
  device: 'Please provide an advertising id (IDFA or AAID): 32 hexadecimal digits, hyphenated 8-4-4-4-12.',
  vin: 'Please provide a 17-character VIN with a valid check digit.',
  id: 'Please provide an identity id: a positive whole number.',
} as const;

/**
 * Trimmed, every space removed (pasted addresses carry them), lowercase. Unlike an account's address (isEmail), a
 * person's may have a non-ASCII local part: the graph stores what people use.
 */
export function normalizeEmail(raw: string): string | null {
  const value = raw.replace(/\s+/g, '').toLowerCase();
  return isAnyEmail(value) ? value : null;
}

/**
 * E.164. Ten NANP digits (optionally after 1 or +1) become +1…, with area code and exchange not starting 0 or 1;
 * anything else must be written with + and a country code, 8 to 15 digits.
 */
export function normalizePhone(raw: string): string | null {
  const trimmed = raw.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  const international = trimmed.startsWith('+');
  const nanp =
    digits.length === 10 && !international
      ? digits
      : digits.length === 11 && digits[0] === '1'
        ? digits.slice(1)
        : null;
  if (nanp !== null) return /^[2-9]\d{2}[2-9]\d{6}$/.test(nanp) ? `+1${nanp}` : null;
  if (!international || digits.length < 8 || digits.length > 15 || digits[0] === '0') return null;
  return `+${digits}`;
}

function hexHash(raw: string, length: number): string | null {
  const value = raw.trim().toLowerCase();
  return value.length === length && /^[0-9a-f]+$/.test(value) ? value : null;
}

export const normalizeMd5 = (raw: string) => hexHash(raw, 32);
export const normalizeSha256 = (raw: string) => hexHash(raw, 64);

function ipv4(value: string): string | null {
  const parts = value.split('.');
  if (parts.length !== 4) return null;
  // A leading zero is refused: some systems read 010 as octal 8.
  if (!parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.join('.');
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run of two or more zero groups written ::. */
function ipv6(value: string): string | null {
  let text = value.toLowerCase();
  let tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4(dotted[2]!);
    if (!v4) return null;
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const groups = [
    ...head.map((g) => Number.parseInt(g, 16)),
    ...Array<number>(8 - known).fill(0),
    ...rest.map((g) => Number.parseInt(g, 16)),
    ...tail,
  ];
  if (groups.slice(0, 6).join() === '0,0,0,0,0,65535') {
    // An IPv4-mapped address is the IPv4 address.
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

export function normalizeIp(raw: string): string | null {
  const value = raw.trim();
  if (value.length > 45) return null;
  return value.includes(':') ? ipv6(value) : ipv4(value);
}

/** Advertising ids are UUID-shaped: lowercase, hyphenated 8-4-4-4-12 (32 bare hex digits are hyphenated). */
export function normalizeDevice(raw: string): string | null {
  const hex = raw.trim().toLowerCase().replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/.test(hex) || /^0+$/.test(hex)) return null;
  const dashed = raw.trim().includes('-');
  if (dashed && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw.trim())) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function normalizeLookupVin(raw: string): string | null {
  const value = normalizeVin(raw);
  return isValidVin(value) ? value : null;
}

/** Identity ids are positive integers JavaScript holds exactly. */
export function normalizeIdentityId(raw: string): number | null {
  const value = raw.trim();
  if (!/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/** The exact keys and how each is normalized. */
export const KEY_NORMALIZERS = {
  email: normalizeEmail,
  phone: normalizePhone,
  md5: normalizeMd5,
  sha256: normalizeSha256,
  ip: normalizeIp,
  device: normalizeDevice,
  vin: normalizeLookupVin,
  id: normalizeIdentityId,
} as const;
export type LookupKey = keyof typeof KEY_NORMALIZERS;
