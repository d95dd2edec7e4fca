/**
 * Permissible purposes (issue 34 item 2): why a regulated buyer looked someone up. An organization's contract lists
 * the purposes it may use (none listed: it needs none); a key declares a default, and a call may name one
 * (`purpose=` or the `X-Permissible-Purpose` header). The purpose used is kept on the lookup audit trail.
 *
 * The list follows the three US laws buyers cite: GLBA's exceptions to notice and opt-out (15 U.S.C. 6802(e)), the
 * DPPA's permissible uses (18 U.S.C. 2721(b)) and the FCRA's permissible purposes (15 U.S.C. 1681b(a)).
 */

export const PURPOSE_LAWS = ['GLBA', 'DPPA', 'FCRA'] as const;
export type PurposeLaw = (typeof PURPOSE_LAWS)[number];

export interface PurposeInfo {
  id: string;
  law: PurposeLaw;
  /** The provision it rests on, for the console and the documentation. */
  citation: string;
  label: string;
}

export const PURPOSES = [
  {
    id: 'glba-consumer-request',
    law: 'GLBA',
    citation: '15 U.S.C. 6802(e)(1)',
    label: 'To process a transaction the consumer requested or authorized',
  },
  {
    id: 'glba-fraud-prevention',
    law: 'GLBA',
    citation: '15 U.S.C. 6802(e)(3)',
    label: 'To protect against or prevent actual or potential fraud',
  },
  {
    id: 'glba-legal-compliance',
    law: 'GLBA',
    citation: '15 U.S.C. 6802(e)(8)',
    label: 'To comply with law, regulation, subpoena or other legal process',
  },
  {
    id: 'dppa-government',
    law: 'DPPA',
    citation: '18 U.S.C. 2721(b)(1)',
    label: 'For a government agency carrying out its functions',
  },
  {
    id: 'dppa-identity-verification',
    law: 'DPPA',
    citation: '18 U.S.C. 2721(b)(3)',
    label: 'To verify information a person gave, and prevent fraud, in the normal course of business',
  },
  {
    id: 'dppa-legal-proceeding',
    law: 'DPPA',
    citation: '18 U.S.C. 2721(b)(4)',
    label: 'In connection with a civil, criminal or administrative proceeding',
  },
  {
    id: 'dppa-insurance',
    law: 'DPPA',
    citation: '18 U.S.C. 2721(b)(6)',
    label: 'By an insurer for claims, antifraud, rating or underwriting',
  },
  {
    id: 'fcra-consumer-instruction',
    law: 'FCRA',
    citation: '15 U.S.C. 1681b(a)(2)',
    label: "On the consumer's written instructions",
  },
  {
    id: 'fcra-credit-transaction',
    law: 'FCRA',
    citation: '15 U.S.C. 1681b(a)(3)(A)',
    label: 'For a credit transaction involving the consumer, or collecting an account',
  },
  {
    id: 'fcra-employment',
    law: 'FCRA',
    citation: '15 U.S.C. 1681b(a)(3)(B)',
    label: "For employment purposes, with the consumer's written consent",
  },
  {
    id: 'fcra-tenant-screening',
    law: 'FCRA',
    citation: '15 U.S.C. 1681b(a)(3)(F)(i)',
    label: 'For a business transaction the consumer started, such as renting a home',
  },
] as const satisfies readonly PurposeInfo[];

export type Purpose = (typeof PURPOSES)[number]['id'];
export const PURPOSE_IDS: readonly Purpose[] = PURPOSES.map((p) => p.id);

/** The query parameter and header a call names its purpose with (the parameter wins). */
export const PURPOSE_PARAMETER = 'purpose';
export const PURPOSE_HEADER = 'x-permissible-purpose';

/** Most purposes a contract lists (all of them). */
export const MAX_PURPOSES = PURPOSES.length;

export const isPurpose = (value: unknown): value is Purpose =>
  typeof value === 'string' && (PURPOSE_IDS as readonly string[]).includes(value);

export function purposeLabel(id: Purpose): string {
  return PURPOSES.find((p) => p.id === id)?.label ?? id;
}

/** A name as a message may repeat it: short, printable. */
const shown = (value: string) => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 60);

const list = (ids: readonly string[]) => ids.join(', ');

export const PURPOSE_MESSAGES = {
  unknown: (value: string) => `"${shown(value)}" is not a permissible purpose. Use one of: ${list(PURPOSE_IDS)}.`,
  repeated: 'Please name one permissible purpose.',
  required: (allowed: readonly string[]) =>
    `This lookup needs a permissible purpose. Your contract allows: ${list(allowed)}. Name one with purpose= or the X-Permissible-Purpose header.`,
  notAllowed: (purpose: string, allowed: readonly string[]) =>
    `Your contract does not allow the permissible purpose ${purpose}. It allows: ${list(allowed)}.`,
  repeatedInContract: (id: string) => `${id} is listed twice; please list each permissible purpose once.`,
} as const;

/**
 * A purpose as a call, key or job names it: null when none is named (absent or empty), the id when it is one, an
 * error naming it otherwise. A list (a parameter given twice) is refused.
 */
export function parsePurpose(raw: unknown): { purpose: Purpose | null; error?: undefined } | { error: string } {
  if (raw === undefined || raw === null) return { purpose: null };
  if (Array.isArray(raw)) return { error: PURPOSE_MESSAGES.repeated };
  if (typeof raw !== 'string') return { error: PURPOSE_MESSAGES.unknown(String(raw)) };
  const value = raw.trim();
  if (value === '') return { purpose: null };
  return isPurpose(value) ? { purpose: value } : { error: PURPOSE_MESSAGES.unknown(value) };
}

/** Why a contract's list of purposes cannot be kept, or undefined when it can (empty: none required). */
export function purposesProblem(ids: readonly unknown[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (!isPurpose(id)) return PURPOSE_MESSAGES.unknown(String(id));
    if (seen.has(id)) return PURPOSE_MESSAGES.repeatedInContract(id);
    seen.add(id);
  }
  return undefined;
}

/**
 * Whether a call may proceed under a contract's list (null or empty: no purpose is required): the 403's message when
 * not, null when it may.
 */
export function purposeRefusal(allowed: readonly string[] | null | undefined, purpose: Purpose | null): string | null {
  if (!allowed || allowed.length === 0) return null;
  if (purpose === null) return PURPOSE_MESSAGES.required(allowed);
  if (!allowed.includes(purpose)) return PURPOSE_MESSAGES.notAllowed(purpose, allowed);
  return null;
}
