/** The e-mail telling the support address about a new contact message. Every value a visitor typed is escaped. */
import type { ContactMessage } from '@tessera/common/contact';
import { consoleLink, escapeHtml, type MailMessage, mailDocument, mailLink, paragraph } from '../../mail';

export function staffLink(publicUrl: URL): string {
  return consoleLink(publicUrl, '/contact');
}

export function contactMail(to: string, message: ContactMessage, link: string): MailMessage {
  const rows: [string, string][] = [
    ['Name', message.name],
    ['Email', message.email],
    ['Company', message.company || '(none)'],
    ['Phone', message.phone || '(none)'],
  ];
  const subject = `Tessera contact message #${message.id}`;
  const text = [
    `A new message arrived through Contact Us (#${message.id}).`,
    rows.map(([k, v]) => `${k}: ${v}`).join('\n'),
    message.message,
    `Mark it handled at ${link}`,
  ].join('\n\n');
  const html = mailDocument(
    subject,
    [
      paragraph(`A new message arrived through Contact Us (#${message.id}).`),
      '<table style="margin:0 0 16px;border-collapse:collapse">',
      ...rows.map(
        ([k, v]) => `<tr><th style="text-align:left;padding:2px 12px 2px 0">${k}</th><td>${escapeHtml(v)}</td></tr>`,
      ),
      '</table>',
      paragraph(message.message, 'white-space:pre-wrap'),
      `<p style="margin:0">${mailLink(link, 'Mark it handled')}</p>`,
    ].join('\n'),
  );
  return { to, subject, text, html, link };
}
