/**
 * One address is one mailbox (issue 28 item 9), for every public form that mails or throttles by an address a
 * visitor types (Contact Us, opt-out requests). The spec §5 e-mail rule lets through characters the mail library
 * reads as structure: `5,victim@x` is two recipients, `x<victim@x`, `(x)victim@x` and `"victim"@x` all mail
 * victim@x, so a per-address limit counting the text as typed counted nothing. An address here is only one that the
 * library's own parser reads back as exactly itself, with a local part of RFC 5322 atoms and dots (nothing an SMTP
 * envelope would quote or cut), so the address throttled is the address mailed.
 */
import { CONTACT_MESSAGES } from '@tessera/common/contact';
import { emailSchema } from '@tessera/common/schemas/fields';
import { isEmail } from '@tessera/common/validation';
import addressparser from 'nodemailer/lib/addressparser';

const ATOMS_AND_DOTS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[^@]+$/;

/** True when nodemailer would send to exactly this one address, unchanged. */
export function isOneMailbox(address: string): boolean {
  if (!ATOMS_AND_DOTS.test(address)) return false;
  const parsed = addressparser(address, { flatten: true });
  return parsed.length === 1 && parsed[0]!.name === '' && parsed[0]!.address === address;
}

/**
 * The spec §5 address, canonical (NFKC, trimmed), and one mailbox; an address the spec rule already refuses gets its
 * message alone. Throttle by `emailKey` of the result: it is then the address the mail goes to, lower-cased.
 */
export const mailboxSchema = emailSchema.refine(
  (address) => !isEmail(address) || isOneMailbox(address),
  CONTACT_MESSAGES.oneAddress,
);
