/** The two opt-out mails: the confirmation link (single use, 72 hours) and the note of what it left out. */
import { STEWARDSHIP_LIMITS } from '@tessera/common/stewardship';
import { escapeHtml, type MailMessage } from '../../mail';

/** The console's contact page with the token in the fragment: it never reaches a server log or a Referer. */
export function optOutLink(publicUrl: URL, token: string): string {
  const prefix = publicUrl.pathname.replace(/\/+$/, '');
  return `${publicUrl.origin}${prefix}/contact#opt-out=${encodeURIComponent(token)}`;
}

function page(subject: string, paragraphs: string[], link?: { href: string; label: string }): string {
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const button = link
    ? `<p style="margin:24px 0"><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:12px 20px;background:#1565c0;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(link.label)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212121">
<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
${paragraphs.slice(0, 1).map(p).join('')}${button}${paragraphs.slice(1).map(p).join('\n')}
</div>
</body>
</html>
`;
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
