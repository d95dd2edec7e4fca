/** The e-mail of a usage alert: what fired, and a link to the organization's page where the settings are. */
import type { Alert } from '@tessera/common/alerts';
import { AUTOMATED_FOOTER, consoleLink, type MailMessage, mailDocument, mailLink, paragraph } from '../../mail';

export function organizationLink(publicUrl: URL, organizationId: number): string {
  return consoleLink(publicUrl, `/organizations/${organizationId}`);
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
  const html = mailDocument(
    alert.title,
    [
      paragraph(hello),
      paragraph(alert.title, 'font-weight:bold'),
      paragraph(alert.text ?? ''),
      paragraph(settings),
      `<p style="margin:0 0 16px">${mailLink(link, link)}</p>`,
      AUTOMATED_FOOTER,
    ].join('\n'),
  );
  return { to, subject: `Tessera ${alert.title.charAt(0).toLowerCase()}${alert.title.slice(1)}`, text, html, link };
}
