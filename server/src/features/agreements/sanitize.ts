/**
 * Agreement HTML is sanitised once, on save, with sanitize-html (an allow-list): scripts, styles, event handlers,
 * frames, forms and javascript:/data: links are removed, so the Terms page may render what is stored as HTML.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'nav' && tag !== 'menu'),
  allowedAttributes: { a: ['href', 'name', 'title'], '*': ['id'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Links to other sites open as links do, without handing them this window.
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: /^https?:/i.test(attribs.href ?? '') ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};
// rel is set by the transform above; allow it through.
(OPTIONS.allowedAttributes as Record<string, string[]>).a!.push('rel');

export function sanitizeAgreement(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Whether sanitised HTML still has readable text. */
export function hasText(html: string): boolean {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() !== '';
}
