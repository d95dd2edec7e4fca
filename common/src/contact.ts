/**
 * Contact Us (issue 18 item 3) and agreement versions (item 5): limits and messages shared by the console form and
 * the server's schemas. Spec §5 gives the email rule, 'Please provide {what}.' and the name limit; the other limits
 * and the phone rule are ours (the spec has none), held to the same message pattern.
 */
import { MAX_LENGTH, MESSAGES } from './validation';

export const CONTACT_LIMITS = {
  name: MAX_LENGTH.name,
  email: MAX_LENGTH.email,
  company: 100,
  phone: 30,
  message: 5000,
} as const;

/** What each field is called in 'Please provide {what}.' and the too-long message. */
export const CONTACT_WHAT = {
  name: 'a name',
  email: 'an email address',
  company: 'a company',
  phone: 'a phone number',
  message: 'a message',
} as const;

/** Digits with the usual separators, 7 to 20 digits in all; an optional leading '+'. */
const PHONE = /^\+?[0-9 ().\-/]+$/;

export const isPhone = (v: string) => {
  if (v.length > CONTACT_LIMITS.phone || !PHONE.test(v)) return false;
  const digits = v.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 20;
};

export const CONTACT_MESSAGES = {
  phone: 'Please provide a valid phone number.',
  /** The confirmation alert after a message is stored. */
  sentTitle: 'Message Sent',
  sentText: 'Thank you for writing to us. We will answer by email as soon as we can.',
  notFound: 'There is no such message.',
  forbidden: 'Only system administrators can read contact messages.',
  email: MESSAGES.email,
  /** An address the mail library would split, rename or rewrite (issue 28 item 9): one address is one mailbox. */
  oneAddress:
    'Please provide one email address on its own: no lists (commas or semicolons), names, angle brackets, comments (parentheses), quotes or colons.',
} as const;

export interface ContactForm {
  name: string;
  email: string;
  company: string;
  phone: string;
  message: string;
}

/** A stored message as staff see it. */
export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  company: string;
  phone: string;
  message: string;
  createdAt: string;
  handledAt: string | null;
  handledBy: number | null;
}

/** Agreement versions (super+). */
export const AGREEMENT_LIMITS = {
  /** Characters of HTML as sent, before sanitising. */
  html: 200_000,
} as const;

export const AGREEMENT_MESSAGES = {
  html: MESSAGES.required('the agreement text'),
  htmlTooLong: MESSAGES.tooLong('the agreement text', AGREEMENT_LIMITS.html),
  /** Sanitising left nothing readable (e.g. only a script was sent). */
  empty: 'The agreement has no text left once scripts and unsafe markup are removed.',
  forbidden: 'Only system administrators can publish and review agreement versions.',
  notFound: 'There is no such agreement version.',
  publishedTitle: 'Agreement Published',
  publishedText: 'Every user will be asked to accept the new version at their next request.',
} as const;

export interface AgreementVersion {
  id: number;
  createdAt: string;
  /** Characters of sanitised HTML. */
  length: number;
  acceptances: number;
  current: boolean;
}

export interface AgreementAcceptance {
  userId: number;
  name: string;
  email: string;
  acceptedAt: string;
}
