/**
 * The FAQ's search: an entry matches when every word of the query appears in its question, answer or topic,
 * case and accents ignored. The answer's marks (`code`, [text](/path)) are searched as the text they show.
 */
import type { FaqEntry } from './faq-entries';

/** An answer's text as shown: code marks dropped, links reduced to their text. */
export function plainText(answer: string): string {
  return answer.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/`/g, '');
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

export function matches(entry: FaqEntry & { topic?: string }, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = fold(`${entry.question} ${plainText(entry.answer)} ${entry.topic ?? ''}`);
  return words.every((w) => text.includes(w));
}

export function filterEntries<T extends FaqEntry & { topic?: string }>(entries: readonly T[], query: string): T[] {
  return entries.filter((e) => matches(e, query));
}

/** What the live region says. */
export function countText(shown: number, total: number, query: string): string {
  if (!query.trim()) return `${total} questions`;
  if (shown === 0) return 'No question matches your search.';
  return `${shown} of ${total} questions match`;
}

/** An answer split into text, code and link parts, for rendering. */
export type Part = { kind: 'text' | 'code'; text: string } | { kind: 'link'; text: string; href: string };

export function parts(answer: string): Part[] {
  const out: Part[] = [];
  const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)]+)\)/g;
  let last = 0;
  for (const m of answer.matchAll(pattern)) {
    if (m.index > last) out.push({ kind: 'text', text: answer.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[1] });
    else out.push({ kind: 'link', text: m[2] ?? '', href: m[3] ?? '' });
    last = m.index + m[0].length;
  }
  if (last < answer.length) out.push({ kind: 'text', text: answer.slice(last) });
  return out;
}
