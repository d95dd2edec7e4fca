/** The e-mail telling the support address that a chat conversation waits for an answer. What users wrote is escaped. */
import type { ChatConversation, ChatMessage } from '@tessera/common/support-chat';
import { escapeHtml, type MailMessage } from '../../mail';

export function chatLink(publicUrl: URL, conversationId: number): string {
  const prefix = publicUrl.pathname.replace(/\/+$/, '');
  return `${publicUrl.origin}${prefix}/chat?conversation=${conversationId}`;
}

export function unansweredMail(input: {
  to: string;
  conversation: ChatConversation;
  waiting: ChatMessage[];
  minutes: number;
  link: string;
}): MailMessage {
  const { to, conversation: c, waiting, minutes, link } = input;
  const who = c.userName.trim() ? `${c.userName.trim()} <${c.userEmail}>` : c.userEmail;
  const subject = `Tessera support chat #${c.id} waits for an answer`;
  const intro = `${who} has waited more than ${minutes} minutes for an answer in the support chat (#${c.id}).`;
  const text = [
    intro,
    waiting.map((m) => `[${m.createdAt}] ${m.body}`).join('\n\n'),
    `Answer in the console at ${link}, or by email to ${c.userEmail}.`,
  ].join('\n\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212121">
<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
${waiting
  .map(
    (m) =>
      `<p style="margin:0 0 12px;white-space:pre-wrap"><span style="color:#616161">${escapeHtml(m.createdAt)}</span><br>${escapeHtml(m.body)}</p>`,
  )
  .join('\n')}
<p style="margin:16px 0 0"><a href="${escapeHtml(link)}" style="color:#1565c0">Answer in the console</a>, or by email to ${escapeHtml(c.userEmail)}.</p>
</div>
</body>
</html>
`;
  return { to, subject, text, html, link };
}
