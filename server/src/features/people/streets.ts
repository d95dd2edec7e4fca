/**
 * Street address vocabulary after USPS Publication 28 (Postal Addressing Standards): street suffixes with their
 * standard abbreviations and common other spellings, directionals and secondary unit designators, plus a
 * normalizer that writes an address line the way the USPS standardizes it ("123 n oak street apt. 4b" →
 * "123 N OAK ST APT 4B"). The generator writes both forms; the matcher compares normalized lines.
 */

/** Full suffix, standard abbreviation, other spellings seen in data. */
const SUFFIXES: readonly (readonly [string, string, ...string[]])[] = [
  ['Alley', 'ALY', 'ALLEE', 'ALLY'],
  ['Avenue', 'AVE', 'AV', 'AVEN', 'AVENU', 'AVN', 'AVNUE'],
  ['Bend', 'BND'],
  ['Bluff', 'BLF'],
  ['Boulevard', 'BLVD', 'BOUL', 'BOULV', 'BLV'],
  ['Bridge', 'BRG'],
  ['Brook', 'BRK'],
  ['Bypass', 'BYP'],
  ['Canyon', 'CYN'],
  ['Causeway', 'CSWY'],
  ['Center', 'CTR', 'CENTR', 'CNTR', 'CENTRE'],
  ['Circle', 'CIR', 'CIRC', 'CIRCL', 'CRCL', 'CRCLE'],
  ['Cove', 'CV'],
  ['Court', 'CT', 'CRT'],
  ['Creek', 'CRK'],
  ['Crescent', 'CRES', 'CRSNT'],
  ['Crossing', 'XING', 'CRSSNG'],
  ['Drive', 'DR', 'DRIV', 'DRV'],
  ['Estates', 'ESTS'],
  ['Expressway', 'EXPY', 'EXP', 'EXPR', 'EXPW'],
  ['Freeway', 'FWY', 'FRWY'],
  ['Gardens', 'GDNS'],
  ['Glen', 'GLN'],
  ['Green', 'GRN'],
  ['Grove', 'GRV'],
  ['Harbor', 'HBR'],
  ['Heights', 'HTS'],
  ['Highway', 'HWY', 'HIGHWY', 'HIWAY', 'HIWY', 'HWAY'],
  ['Hill', 'HL'],
  ['Hollow', 'HOLW'],
  ['Junction', 'JCT'],
  ['Knoll', 'KNL'],
  ['Lake', 'LK'],
  ['Landing', 'LNDG'],
  ['Lane', 'LN'],
  ['Loop', 'LOOP'],
  ['Manor', 'MNR'],
  ['Meadow', 'MDW'],
  ['Meadows', 'MDWS'],
  ['Mill', 'ML'],
  ['Orchard', 'ORCH'],
  ['Oval', 'OVAL'],
  ['Park', 'PARK'],
  ['Parkway', 'PKWY', 'PARKWY', 'PKY', 'PKWAY'],
  ['Pass', 'PASS'],
  ['Path', 'PATH'],
  ['Pike', 'PIKE'],
  ['Pines', 'PNES'],
  ['Place', 'PL'],
  ['Plaza', 'PLZ'],
  ['Point', 'PT'],
  ['Ranch', 'RNCH'],
  ['Ridge', 'RDG'],
  ['Road', 'RD'],
  ['Route', 'RTE'],
  ['Row', 'ROW'],
  ['Run', 'RUN'],
  ['Shore', 'SHR'],
  ['Spring', 'SPG'],
  ['Springs', 'SPGS'],
  ['Square', 'SQ', 'SQR'],
  ['Station', 'STA'],
  ['Street', 'ST', 'STR', 'STRT'],
  ['Summit', 'SMT'],
  ['Terrace', 'TER', 'TERR'],
  ['Trace', 'TRCE'],
  ['Trail', 'TRL', 'TRAILS', 'TRLS'],
  ['Turnpike', 'TPKE', 'TURNPK'],
  ['Valley', 'VLY'],
  ['View', 'VW'],
  ['Village', 'VLG'],
  ['Vista', 'VIS'],
  ['Walk', 'WALK'],
  ['Way', 'WAY'],
  ['Woods', 'WDS'],
];

/** Directionals, full and abbreviated. */
const DIRECTIONALS: readonly (readonly [string, string])[] = [
  ['North', 'N'],
  ['South', 'S'],
  ['East', 'E'],
  ['West', 'W'],
  ['Northeast', 'NE'],
  ['Northwest', 'NW'],
  ['Southeast', 'SE'],
  ['Southwest', 'SW'],
];

/** Secondary unit designators, full and abbreviated; '#' stands alone. */
const UNITS: readonly (readonly [string, string, ...string[]])[] = [
  ['Apartment', 'APT', 'APPT'],
  ['Basement', 'BSMT'],
  ['Building', 'BLDG'],
  ['Department', 'DEPT'],
  ['Floor', 'FL'],
  ['Front', 'FRNT'],
  ['Lot', 'LOT'],
  ['Lower', 'LOWR'],
  ['Office', 'OFC'],
  ['Penthouse', 'PH'],
  ['Rear', 'REAR'],
  ['Room', 'RM'],
  ['Space', 'SPC'],
  ['Suite', 'STE'],
  ['Trailer', 'TRLR'],
  ['Unit', 'UNIT'],
  ['Upper', 'UPPR'],
];

const upper = (s: string) => s.toUpperCase();
const indexBy = (rows: readonly (readonly string[])[]) => {
  const map = new Map<string, string>();
  for (const [full, abbr, ...others] of rows) {
    for (const spelling of [full!, abbr!, ...others]) map.set(upper(spelling), abbr!);
  }
  return map;
};

const SUFFIX_ABBR = indexBy(SUFFIXES);
const SUFFIX_FULL = new Map(SUFFIXES.map(([full, abbr]) => [abbr, full]));
const DIRECTIONAL_ABBR = indexBy(DIRECTIONALS);
const DIRECTIONAL_FULL = new Map(DIRECTIONALS.map(([full, abbr]) => [abbr, full]));
const UNIT_ABBR = indexBy(UNITS);
const UNIT_FULL = new Map(UNITS.map(([full, abbr]) => [abbr, full]));

/** Every suffix: full name (title case) and standard abbreviation (upper case). */
export const STREET_SUFFIXES: readonly { full: string; abbreviation: string }[] = SUFFIXES.map(
  ([full, abbreviation]) => ({ full, abbreviation }),
);
export const UNIT_DESIGNATORS: readonly { full: string; abbreviation: string }[] = UNITS.map(
  ([full, abbreviation]) => ({ full, abbreviation }),
);

/** The standard abbreviation of a suffix written any accepted way ('Avenue', 'av', 'AVE.' → 'AVE'), or undefined. */
export function suffixAbbreviation(word: string): string | undefined {
  return SUFFIX_ABBR.get(upper(word.replace(/\.$/, '')));
}

/** The full suffix ('Avenue') for any accepted spelling, or undefined. */
export function suffixFullName(word: string): string | undefined {
  const abbr = suffixAbbreviation(word);
  return abbr ? SUFFIX_FULL.get(abbr) : undefined;
}

export function directionalAbbreviation(word: string): string | undefined {
  return DIRECTIONAL_ABBR.get(upper(word.replace(/\.$/, '')));
}

export function directionalFullName(word: string): string | undefined {
  const abbr = directionalAbbreviation(word);
  return abbr ? DIRECTIONAL_FULL.get(abbr) : undefined;
}

/** The standard abbreviation of a unit designator ('Apartment', 'apt.' → 'APT'; '#' → '#'), or undefined. */
export function unitAbbreviation(word: string): string | undefined {
  if (word === '#') return '#';
  return UNIT_ABBR.get(upper(word.replace(/\.$/, '')));
}

export function unitFullName(word: string): string | undefined {
  const abbr = unitAbbreviation(word);
  return abbr === '#' ? '#' : abbr ? UNIT_FULL.get(abbr) : undefined;
}

/** A normalized address line split into the street and the secondary unit ('' when none). */
export interface NormalizedAddress {
  street: string;
  unit: string;
}

/** Unit designators that need no number after them ("REAR"). */
const BARE_UNITS = new Set(['BSMT', 'FRNT', 'LOWR', 'PH', 'REAR', 'UPPR']);

/**
 * The USPS form of an address line: upper case, no punctuation but '#' and the '-' and '/' inside numbers,
 * single spaces; the pre- and post-directional, the street suffix and the unit designator abbreviated. Words
 * that only look like suffixes or directionals inside the street name stay ("123 PARK AVE", "9 NORTH ST").
 */
export function normalizeAddress(line: string): NormalizedAddress {
  const words = upper(line)
    .replace(/#/g, ' # ')
    .replace(/[^A-Z0-9#\-/ ]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== '-');
  let streetWords = words;
  let unit: string[] = [];
  const n = words.length;
  const designator = n >= 4 ? unitAbbreviation(words[n - 2]!) : undefined;
  if (designator && !BARE_UNITS.has(designator) && /\d|^[A-Z]$/.test(words[n - 1]!)) {
    streetWords = words.slice(0, n - 2);
    unit = [designator, words[n - 1]!];
  } else if (n >= 4 && BARE_UNITS.has(unitAbbreviation(words[n - 1]!) ?? '')) {
    streetWords = words.slice(0, n - 1);
    unit = [unitAbbreviation(words[n - 1]!)!];
  }
  let end = streetWords.length - 1;
  let post = '';
  if (end >= 3 && directionalAbbreviation(streetWords[end]!) && suffixAbbreviation(streetWords[end - 1]!)) {
    post = directionalAbbreviation(streetWords[end]!)!;
    end--;
  }
  let suffix = '';
  if (end >= 2 && suffixAbbreviation(streetWords[end]!)) {
    suffix = suffixAbbreviation(streetWords[end]!)!;
    end--;
  }
  let start = 1;
  let pre = '';
  if (end >= 2 && directionalAbbreviation(streetWords[1]!)) {
    pre = directionalAbbreviation(streetWords[1]!)!;
    start = 2;
  }
  const street = [streetWords[0], pre, ...streetWords.slice(start, end + 1), suffix, post].filter(Boolean).join(' ');
  return { street, unit: unit.join(' ') };
}

/** The whole normalized line: street, then unit. */
export function normalizeAddressLine(line: string): string {
  const { street, unit } = normalizeAddress(line);
  return unit ? `${street} ${unit}` : street;
}
