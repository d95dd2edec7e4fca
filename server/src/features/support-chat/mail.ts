/** The e-mail telling the support address that a chat conversation waits for an answer. What users wrote is escaped. */
import type { ChatConversation, ChatMessage } from '@tessera/common/support-chat';
import { consoleLink, escapeHtml, type MailMessage, mailDocument, mailLink, paragraph } from '../../mail';

export function chatLink(publicUrl: URL, conversationId: number): string {
  return consoleLink(publicUrl, `/chat?conversation=${conversationId}`);
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
  const html = mailDocument(
    subject,
    [
      paragraph(intro),
      ...waiting.map(
        (m) =>
          `<p style="margin:0 0 12px;white-space:pre-wrap"><span style="color:#616161">${escapeHtml(m.createdAt)}</span><br>${escapeHtml(m.body)}</p>`,
      ),
      `<p style="margin:16px 0 0">${mailLink(link, 'Answer in the console')}, or by email to ${escapeHtml(c.userEmail)}.</p>`,
    ].join('\n'),
  );
  return { to, subject, text, html, link };
}
