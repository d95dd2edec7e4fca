/**
 * Release notes are Markdown; the console shows them as HTML rendered here with marked and cleaned by
 * sanitize-html (an allow-list: no scripts, styles, event handlers, frames or javascript: links).
 */
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags.filter((t) => t !== 'nav' && t !== 'menu'), 'del'],
  allowedAttributes: { a: ['href', 'title', 'rel'], code: ['class'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export function renderNotes(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true }) as string;
  return sanitizeHtml(html, OPTIONS).trim();
}
