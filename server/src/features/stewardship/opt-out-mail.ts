/** The two opt-out mails: the confirmation link (single use, 72 hours) and the note of what it left out. */
import { STEWARDSHIP_LIMITS } from '@tessera/common/stewardship';
import { consoleLink, type MailMessage, mailButton, mailDocument, paragraph } from '../../mail';

/** The console's contact page with the token in the fragment: it never reaches a server log or a Referer. */
export function optOutLink(publicUrl: URL, token: string): string {
  return consoleLink(publicUrl, `/contact#opt-out=${encodeURIComponent(token)}`);
}

function page(subject: string, paragraphs: string[], link?: { href: string; label: string }): string {
  const [first = '', ...rest] = paragraphs;
  return mailDocument(
    subject,
    `${paragraph(first)}${link ? mailButton(link.href, link.label) : ''}${rest.map((s) => paragraph(s)).join('\n')}`,
  );
}

export function confirmOptOutMail(to: string, link: string): MailMessage {
  const subject = 'Confirm your Tessera opt-out request';
  const lines = [
    'Someone, we hope you, asked Tessera to leave this address out of the answers to our customers’ lookups. Confirm the request with this link:',
    `The link works once, for ${STEWARDSHIP_LIMITS.optOutHours} hours. If you did not ask, ignore this message: nothing changes.`,
    '— Tessera. This is an automated message; replies are not read.',
  ];
  return {
    to,
    subject,
    text: [lines[0], link, ...lines.slice(1)].join('\n\n'),
    html: page(subject, lines, { href: link, label: 'Confirm my request' }),
    link,
  };
}

/** The note once confirmed; `said` is what was and was not left out (optOutOutcomeText), one paragraph each. */
export function optOutDoneMail(to: string, said: string[]): MailMessage {
  const subject = 'Your Tessera opt-out request is confirmed';
  const lines = [
    'Your request is confirmed.',
    ...said,
    '— Tessera. This is an automated message; replies are not read.',
  ];
  return { to, subject, text: lines.join('\n\n'), html: page(subject, lines), link: '' };
}
