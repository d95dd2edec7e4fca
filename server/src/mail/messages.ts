/**
 * The account mails (verify an address, reset or set a password) as plain text and HTML, and the links they
 * carry. Links are built only from the configured public URL, never from a request's Host header, so a forged
 * header cannot send someone's token to another site.
 */
import { AUTOMATED_FOOTER, escapeHtml, mailButton, mailDocument, paragraph } from './document';

export { escapeHtml } from './document';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link in the message; logged in outbox mode so a local user can follow it. */
  link: string;
}

export interface AccountMailInput {
  to: string;
  /** Display name for the greeting; a blank one gives a plain 'Hello,'. */
  name?: string | null;
  link: string;
}

/** Only a plain absolute path: no scheme, no '//' host, no query or fragment of its own. */
const SAFE_PATH = /^\/(?!\/)[^?#\\]*$/;

/**
 * `${publicUrl}${path}?token=...`. Keeps the public URL's path prefix (for a console served under one) and
 * drops its query, fragment and credentials. Throws on a path that could move the link to another origin.
 */
export function actionLink(publicUrl: string | URL, path: string, token: string): string {
  if (!SAFE_PATH.test(path)) throw new TypeError(`actionLink: path must be a plain absolute path, got ${path}`);
  const base = new URL(String(publicUrl));
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${base.origin}${prefix}${path}?token=${encodeURIComponent(token)}`;
}

/** A mail in the one layout every Tessera message has: greeting, paragraphs, a button with its link, paragraphs. */
export interface Layout {
  to: string;
  name?: string | null;
  link: string;
  subject: string;
  /** Paragraphs before the link. */
  intro: string[];
  button: string;
  /** Paragraphs after the link. */
  outro: string[];
}

function greeting(name: string | null | undefined): string {
  const trimmed = name?.trim();
  return trimmed ? `Hello ${trimmed},` : 'Hello,';
}

export function renderMail(m: Layout): MailMessage {
  const text = [
    greeting(m.name),
    ...m.intro,
    m.link,
    ...m.outro,
    '— Tessera',
    'This is an automated message; replies are not read.',
  ].join('\n\n');

  const href = escapeHtml(m.link);
  const html = mailDocument(
    m.subject,
    `${paragraph(greeting(m.name))}
${m.intro.map((s) => paragraph(s)).join('\n')}
${mailButton(m.link, m.button)}
<p style="margin:0 0 16px;font-size:13px;color:#616161">If the button does not work, copy this link into your browser:<br><a href="${href}" style="color:#1565c0;word-break:break-all">${href}</a></p>
${m.outro.map((s) => paragraph(s)).join('\n')}
${AUTOMATED_FOOTER}`,
  );
  return { to: m.to, subject: m.subject, text, html, link: m.link };
}

export function verifyEmail({ to, name, link }: AccountMailInput): MailMessage {
  return renderMail({
    to,
    name,
    link,
    subject: 'Verify your email for Tessera',
    intro: [`Please confirm that ${to} is your email address by opening this link:`],
    button: 'Verify email',
    outro: ['If you did not sign up for Tessera, you can ignore this message; no account will be activated.'],
  });
}

export function resetPassword({ to, name, link }: AccountMailInput): MailMessage {
  return renderMail({
    to,
    name,
    link,
    subject: 'Reset your Tessera password',
    intro: [
      `We received a request to reset the password of the Tessera account for ${to}. To choose a new password, open this link:`,
    ],
    button: 'Reset password',
    outro: [
      'The link expires in 1 hour and can be used once.',
      'If you did not ask for a password reset, you can ignore this message: your password stays the same and nothing changes on your account.',
    ],
  });
}

export function setPassword({ to, name, link }: AccountMailInput): MailMessage {
  return renderMail({
    to,
    name,
    link,
    subject: 'Set your Tessera password',
    intro: [
      `An administrator has created a Tessera account for ${to}. To choose your password and sign in, open this link:`,
    ],
    button: 'Set password',
    outro: ['If you were not expecting this account, you can ignore this message or contact your administrator.'],
  });
}
