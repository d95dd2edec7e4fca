/**
 * The frame every Tessera mail's HTML has: the document, the grey page and the white card. What goes in the card is
 * the message's own (messages.ts for account mail, each feature's mail.ts for its notes); callers escape what they
 * put there, and `paragraph` does it for plain text.
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export function mailDocument(subject: string, card: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212121">
<div style="max-width:560px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">
${card}
</div>
</body>
</html>
`;
}

/** A paragraph of plain text, escaped; `style` adds to the standard spacing. */
export function paragraph(text: string, style = ''): string {
  return `<p style="margin:0 0 16px${style ? `;${style}` : ''}">${escapeHtml(text)}</p>`;
}

/** The message's action as a button. */
export function mailButton(href: string, label: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;background:#1565c0;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(label)}</a></p>`;
}

/** A plain link in the message's text colour for links. */
export function mailLink(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}" style="color:#1565c0">${escapeHtml(label)}</a>`;
}

/** The closing line of an automated message. */
export const AUTOMATED_FOOTER =
  '<p style="margin:24px 0 0;font-size:13px;color:#757575">— Tessera. This is an automated message; replies are not read.</p>';

/** A console address under the public URL (keeping a path prefix the console is served under), for a mail's link. */
export function consoleLink(publicUrl: URL, pathAndRest: string): string {
  return `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}${pathAndRest}`;
}
