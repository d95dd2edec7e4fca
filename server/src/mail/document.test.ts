/** Every mail has the one frame, escapes what people typed, and links under the public URL's path prefix. */
import { describe, expect, it } from 'vitest';
import { contactMail, staffLink } from '../features/contact/mail';
import { confirmOptOutMail, optOutDoneMail, optOutLink } from '../features/stewardship/opt-out-mail';
import { chatLink, unansweredMail } from '../features/support-chat/mail';
import { organizationLink, usageAlertMail } from '../features/usage-alerts/mail';
import { consoleLink, mailDocument, paragraph } from './document';
import { verifyEmail } from './messages';

const HOSTILE = '<script>alert("x")</script> & co';
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co';

describe('mail frame', () => {
  it('wraps a card in the document with the subject as title, escaped', () => {
    const html = mailDocument(HOSTILE, paragraph('hi'));
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain(`<title>${ESCAPED}</title>`);
    expect(html).toContain('<meta name="viewport" content="width=device-width">');
    expect(html).toContain('<p style="margin:0 0 16px">hi</p>');
    expect(paragraph(HOSTILE, 'font-weight:bold')).toBe(`<p style="margin:0 0 16px;font-weight:bold">${ESCAPED}</p>`);
  });

  it('keeps the public URL path prefix in console links, without a doubled slash', () => {
    expect(consoleLink(new URL('https://t.example/console/'), '/contact')).toBe('https://t.example/console/contact');
    expect(consoleLink(new URL('https://t.example'), '/chat?conversation=3')).toBe(
      'https://t.example/chat?conversation=3',
    );
    const base = new URL('https://t.example/c');
    expect(staffLink(base)).toBe('https://t.example/c/contact');
    expect(chatLink(base, 7)).toBe('https://t.example/c/chat?conversation=7');
    expect(organizationLink(base, 9)).toBe('https://t.example/c/organizations/9');
    expect(optOutLink(base, 'a b')).toBe('https://t.example/c/contact#opt-out=a%20b');
  });

  it('gives every feature mail the same frame and escapes what people typed', () => {
    const link = 'https://t.example/x?a=1&b=2';
    const mails = [
      verifyEmail({ to: 'a@t.example', name: HOSTILE, link }),
      contactMail(
        'staff@t.example',
        {
          id: 1,
          name: HOSTILE,
          email: 'v@t.example',
          company: '',
          phone: '',
          message: HOSTILE,
          createdAt: '2026-01-01T00:00:00Z',
          handledAt: null,
          handledBy: null,
        },
        link,
      ),
      unansweredMail({
        to: 'staff@t.example',
        conversation: {
          id: 2,
          userId: 3,
          userName: HOSTILE,
          userEmail: 'u@t.example',
          status: 'open',
          createdAt: '2026-01-01T00:00:00Z',
          lastMessageAt: '2026-01-01T00:00:00Z',
        } as Parameters<typeof unansweredMail>[0]['conversation'],
        waiting: [{ id: 1, conversationId: 2, authorId: 3, fromStaff: false, body: HOSTILE, createdAt: 'now' }],
        minutes: 5,
        link,
      }),
      usageAlertMail({
        to: 'admin@t.example',
        name: 'Ann',
        alert: { type: 'warning', title: 'Usage passed 80%', text: HOSTILE },
        organizationName: 'Acme',
        link,
      }),
      confirmOptOutMail('p@t.example', link),
      optOutDoneMail('p@t.example', [HOSTILE]),
    ];
    for (const mail of mails) {
      expect(mail.html, mail.subject).toMatch(/^<!doctype html>\n<html lang="en">\n<head>/);
      expect(mail.html, mail.subject).toContain('max-width:560px');
      expect(mail.html, mail.subject).not.toContain('<script>');
    }
    expect(mails.filter((m) => m.html.includes(ESCAPED))).toHaveLength(mails.length - 1); // all but the opt-out link mail
    expect(mails[1]!.html).toContain('href="https://t.example/x?a=1&amp;b=2"');
  });
});
