/**
 * The mail to an organization's administrators when the run of failures disabled one of its webhook endpoints
 * (decision 0066). It names the endpoint by host and path only: a URL's query often holds the receiver's token.
 */
import { WEBHOOK_CONSOLE_PATH } from '@tessera/common/webhooks';
import { consoleLink, type MailMessage, renderMail } from '../../mail';

export function webhooksLink(publicUrl: URL): string {
  return consoleLink(publicUrl, WEBHOOK_CONSOLE_PATH);
}

/** `host/path` of an endpoint, without its query. */
export function endpointName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

export function disabledMail(input: {
  to: string;
  name: string | null;
  organizationName: string;
  url: string;
  description: string;
  failures: number;
  link: string;
}): MailMessage {
  const endpoint = endpointName(input.url) + (input.description ? ` (${input.description})` : '');
  return renderMail({
    to: input.to,
    name: input.name,
    link: input.link,
    subject: 'Tessera: a webhook endpoint was disabled',
    intro: [
      `The webhook endpoint ${endpoint} of ${input.organizationName} was disabled because its last ${input.failures} delivery attempts all failed.`,
      'Nothing is sent to it while it is disabled. Fix the receiver, then enable the endpoint again: the deliveries still pending resume, and any delivery in its log can be replayed.',
    ],
    button: 'Open Webhooks',
    outro: [`You receive this as an administrator of ${input.organizationName}.`],
  });
}
