/**
 * Data stewardship (issue 22): opt-out requests, the suppression list staff manage, the lookup audit trail and the
 * retention of personal data. Limits and messages shared by the console and the server.
 */
import { normalizeEmail, normalizeIdentityId, normalizeMd5, normalizePhone, normalizeSha256 } from './lookup-inputs';
import { MESSAGES } from './validation';

/** What a suppression holds. E-mails are kept as their SHA-256 (the lookups match an address by any of its forms). */
export const SUPPRESSION_KINDS = ['email', 'phone', 'md5', 'sha256', 'identity'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];

/** Where a suppression came from: a confirmed opt-out request, an imported list, or staff by hand. */
export const SUPPRESSION_SOURCES = ['request', 'import', 'staff'] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

export const STEWARDSHIP_LIMITS = {
  value: 200,
  reason: 500,
  /** Suppressions one list answers with, newest first (spec §9 items per page). */
  page: 100,
  /** Bad lines an import report names by number (all are counted). */
  badLinesNamed: 100,
  /** Lookup audit rows one search answers with, newest first. */
  auditPage: 100,
  /** Hours an opt-out confirmation link works. */
  optOutHours: 72,
} as const;

export const STEWARDSHIP_MESSAGES = {
  value: 'Please provide an email address, a phone number, or an MD5 or SHA-256 hash.',
  identity: 'Please provide an identity id: a positive whole number.',
  reason: MESSAGES.required('a reason'),
  reasonTooLong: MESSAGES.tooLong('a reason', STEWARDSHIP_LIMITS.reason),
  forbidden: 'Only system administrators can manage suppressions and read the lookup audit trail.',
  notFound: 'There is no such suppression.',
  exists: 'This value is already suppressed.',
  importBody: 'Please send the list as text/csv or text/plain: one e-mail, phone, MD5 or SHA-256 value a line.',
  importUnreadable: (line: number) =>
    `The list could not be read at line ${line}: check its quotes, or send one value a line. Nothing was imported.`,
  auditValue: 'Please provide a value, or an identity id, to search the lookup audit trail for.',
  optOutSentTitle: 'Check Your Email',
  optOutSentText:
    'If the address can receive mail, a link to confirm your request is on its way. It works once, for 72 hours. Please check your junk or spam folder too.',
  optOutLink: 'This link has expired or has already been used. Please ask again from the contact page.',
  optOutDoneTitle: 'Request Confirmed',
  optOutDoneText:
    'Your request is confirmed: lookups by your email address now return nothing. We have sent you an email saying what else, if anything, was left out.',
  liftedTitle: 'Suppression Lifted',
  addedTitle: 'Suppression Added',
} as const;

/** One (kind, value) the list may hold, normalized as the lookups normalize it. */
export interface SuppressionKey {
  kind: SuppressionKind;
  value: string;
}

/**
 * A value as staff or a list give it, made into the key a suppression stores: an e-mail, a phone number, an MD5 or
 * a SHA-256 hash (hex); null when it is none of these. An e-mail is returned as itself: the server stores its hash.
 */
export function suppressionKeyOf(raw: string): SuppressionKey | null {
  const text = raw.trim();
  if (text === '' || text.length > STEWARDSHIP_LIMITS.value) return null;
  if (text.includes('@')) {
    const email = normalizeEmail(text);
    return email ? { kind: 'email', value: email } : null;
  }
  const md5 = normalizeMd5(text);
  if (md5) return { kind: 'md5', value: md5 };
  const sha = normalizeSha256(text);
  if (sha) return { kind: 'sha256', value: sha };
  const phone = normalizePhone(text);
  return phone ? { kind: 'phone', value: phone } : null;
}

export function identityKeyOf(raw: string): SuppressionKey | null {
  const id = normalizeIdentityId(raw);
  return id === null ? null : { kind: 'identity', value: String(id) };
}

/** A suppression as staff see it (a phone number shown by its last four digits only). */
export interface Suppression {
  id: number;
  kind: SuppressionKind;
  value: string;
  source: SuppressionSource;
  createdAt: string;
  createdBy: number | null;
  requestId: number | null;
}

export interface SuppressionImportReport {
  lines: number;
  added: number;
  alreadyPresent: number;
  peopleMatched: number;
  badLines: number;
  /** The first bad lines' numbers (1-based). */
  badLineNumbers: number[];
}

/** One lookup call's record for one input, as the audit search answers it. */
export interface LookupAuditEntry {
  id: number;
  at: string;
  requestId: string;
  userId: number;
  organizationId: number | null;
  keyId: string | null;
  method: string;
  path: string;
  /** The input's position in the call (0 for a GET). */
  input: number;
  identityIds: number[];
}

/**
 * What a confirmed opt-out left out (issue 28 item 2, decision 0039): the e-mail always (the link proved it); the
 * phone only when an identity holds it together with that e-mail (null: none given); the person only as the one
 * identity holding that e-mail.
 */
export interface OptOutOutcome {
  email: true;
  phone: boolean | null;
  person: boolean;
}

/** The plain words that tell the requester, on the page and by mail, what was and was not left out. */
export const OPT_OUT_OUTCOME = {
  email: 'Lookups by your email address, or by its hashed forms, now return nothing.',
  phoneSuppressed: 'The phone number you gave is left out too: our data holds it together with your email address.',
  phoneKept:
    'The phone number you gave is not left out: we cannot check who a phone number belongs to, so we leave one out only when our data holds it together with your email address, and it does not.',
  person:
    'Your email address belongs to one person in our data, who is left out as well: lookups by name and postal address, phone number or any other detail no longer return them.',
  personKept:
    'Nothing else is left out: your email address does not belong to exactly one person in our data, so lookups by other details, such as a name and postal address, are unchanged.',
} as const;

/** The sentences for an outcome, in the order the page and the mail give them. */
export function optOutOutcomeText(outcome: OptOutOutcome): string[] {
  const phone =
    outcome.phone === null ? [] : [outcome.phone ? OPT_OUT_OUTCOME.phoneSuppressed : OPT_OUT_OUTCOME.phoneKept];
  return [OPT_OUT_OUTCOME.email, ...phone, outcome.person ? OPT_OUT_OUTCOME.person : OPT_OUT_OUTCOME.personKept];
}
