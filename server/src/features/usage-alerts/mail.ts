/** The e-mail of a usage alert: what fired, and a link to the organization's page where the settings are. */
import type { Alert } from '@tessera/common/alerts';
import { escapeHtml, type MailMessage } from '../../mail';

export function organizationLink(publicUrl: URL, organizationId: number): string {
  const prefix = publicUrl.pathname.replace(/\/+$/, '');
  return `${publicUrl.origin}${prefix}/organizations/${organizationId}`;
}

export function usageAlertMail(input: {
  to: string;
  name: string | null;
  alert: Alert;
  organizationName: string;
  link: string;
}): MailMessage {
  const { to, alert, link } = input;
  const hello = input.name?.trim() ? `Hello ${input.name.trim()},` : 'Hello,';
  const settings = `You receive this as an administrator of ${input.organizationName}. The alerts are set on the organization's page:`;
  const text = [
    hello,
    `${alert.title}.`,
    alert.text ?? '',
    settings,
    link,
    '— Tessera',
    'This is an automated message; replies are not read.',
  ].join('\n\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(alert.title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212121">
<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
${p(hello)}
<p style="margin:0 0 16px;font-weight:bold">${escapeHtml(alert.title)}</p>
${p(alert.text ?? '')}
${p(settings)}
<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="color:#1565c0">${escapeHtml(link)}</a></p>
<p style="margin:24px 0 0;font-size:13px;color:#757575">— Tessera. This is an automated message; replies are not read.</p>
</div>
</body>
</html>
`;
  return { to, subject: `Tessera ${alert.title.charAt(0).toLowerCase()}${alert.title.slice(1)}`, text, html, link };
}
