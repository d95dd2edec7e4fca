/** The e-mail telling the support address about a new contact message. Every value a visitor typed is escaped. */
import type { ContactMessage } from '@tessera/common/contact';
import { escapeHtml, type MailMessage } from '../../mail';

export function staffLink(publicUrl: URL): string {
  const prefix = publicUrl.pathname.replace(/\/+$/, '');
  return `${publicUrl.origin}${prefix}/contact`;
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
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212121">
<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
<p style="margin:0 0 16px">A new message arrived through Contact Us (#${message.id}).</p>
<table style="margin:0 0 16px;border-collapse:collapse">
${rows.map(([k, v]) => `<tr><th style="text-align:left;padding:2px 12px 2px 0">${k}</th><td>${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
<p style="margin:0 0 16px;white-space:pre-wrap">${escapeHtml(message.message)}</p>
<p style="margin:0"><a href="${escapeHtml(link)}" style="color:#1565c0">Mark it handled</a></p>
</div>
</body>
</html>
`;
  return { to, subject, text, html, link };
}
