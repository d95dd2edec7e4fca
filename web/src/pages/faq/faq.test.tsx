import { DEBOUNCE_MS } from '@tessera/common/constants';
import { LOOKUP_LIMITS, RATE_MESSAGES } from '@tessera/common/lookups';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage, setupPageTests } from '../test-support';
import { ALL_ENTRIES, FAQ } from './faq-entries';
import FaqPage from './faq-page';
import { countText, filterEntries, matches, parts, plainText } from './faq-search';

setupPageTests();

describe('FAQ content', () => {
  it('has at least 20 answers in the topics the issue asks for, each with a unique anchor', () => {
    expect(ALL_ENTRIES.length).toBeGreaterThanOrEqual(20);
    const ids = ALL_ENTRIES.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
    expect(FAQ.map((t) => t.id)).toEqual([
      'inputs',
      'hashes',
      'scores',
      'templates',
      'batch',
      'limits',
      'contracts',
      'keys',
      'data',
      'suppression',
      'retention',
    ]);
  });

  it('states the numbers and messages common/ holds', () => {
    const text = ALL_ENTRIES.map((e) => e.answer).join('\n');
    expect(text).toContain(`from a score of ${LOOKUP_LIMITS.piiMinScore}`);
    expect(text).toContain(`1 to ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} inputs`);
    expect(text).toContain(RATE_MESSAGES.key(100, 18));
    expect(text).toContain('synthetic');
    expect(text).toContain('[contact page](/contact)');
  });
});

describe('search filter', () => {
  it('matches every word of the query in question, answer or topic, ignoring case and accents', () => {
    const entry = {
      id: 'x',
      question: 'How do I hash an address?',
      answer: 'Use `sha256` on the [trimmed](/faq) text.',
    };
    expect(matches(entry, '')).toBe(true);
    expect(matches(entry, 'HASH')).toBe(true);
    expect(matches(entry, 'hash sha256')).toBe(true);
    expect(matches(entry, 'hásh trimmed')).toBe(true);
    expect(matches(entry, 'hash md5')).toBe(false);
    expect(matches(entry, '/faq')).toBe(false);
    expect(matches({ ...entry, topic: 'MD5 and SHA-256' }, 'md5')).toBe(true);
  });

  it('narrows the real entries', () => {
    expect(filterEntries(ALL_ENTRIES, '').length).toBe(ALL_ENTRIES.length);
    const retry = filterEntries(ALL_ENTRIES, 'retry-after');
    expect(retry.map((e) => e.id)).toContain('rate-limits');
    expect(retry.length).toBeLessThan(ALL_ENTRIES.length);
    expect(filterEntries(ALL_ENTRIES, 'zzzz-nothing')).toEqual([]);
  });

  it('says how many match', () => {
    expect(countText(25, 25, '')).toBe('25 questions');
    expect(countText(3, 25, 'key')).toBe('3 of 25 questions match');
    expect(countText(0, 25, 'zz')).toBe('No question matches your search.');
  });

  it('splits an answer into text, code and links', () => {
    expect(parts('a `b` [c](/d) e')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'c', href: '/d' },
      { kind: 'text', text: ' e' },
    ]);
    expect(plainText('a `b` [c](/d)')).toBe('a b c');
  });
});

describe('FAQ page', () => {
  afterEach(() => vi.useRealTimers());

  it('filters as you type, after the debounce, and says how many match in a live region', () => {
    vi.useFakeTimers();
    renderPage(<FaqPage />, '/faq');
    const count = screen.getByTestId('faq-count');
    expect(count.getAttribute('aria-live')).toBe('polite');
    expect(count.textContent).toBe(`${ALL_ENTRIES.length} questions`);
    expect(screen.getAllByTestId('faq-entry')).toHaveLength(ALL_ENTRIES.length);

    fireEvent.change(screen.getByTestId('faq-search'), { target: { value: 'csv' } });
    act(() => vi.advanceTimersByTime(DEBOUNCE_MS - 1));
    expect(screen.getAllByTestId('faq-entry')).toHaveLength(ALL_ENTRIES.length);
    act(() => vi.advanceTimersByTime(1));
    const shown = filterEntries(ALL_ENTRIES, 'csv');
    expect(shown.length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('faq-entry').map((e) => e.id)).toEqual(shown.map((e) => e.id));
    expect(count.textContent).toBe(`${shown.length} of ${ALL_ENTRIES.length} questions match`);

    fireEvent.change(screen.getByTestId('faq-search'), { target: { value: 'zzzz-nothing' } });
    act(() => vi.advanceTimersByTime(DEBOUNCE_MS));
    expect(screen.queryAllByTestId('faq-entry')).toHaveLength(0);
    expect(count.textContent).toBe('No question matches your search.');
  });

  it('gives every answer an anchor and a link to it', () => {
    renderPage(<FaqPage />, '/faq');
    const links = screen.getAllByTestId('faq-permalink');
    expect(links).toHaveLength(ALL_ENTRIES.length);
    const first = ALL_ENTRIES[0]!;
    expect(document.getElementById(first.id)).not.toBeNull();
    expect(links[0]!.getAttribute('href')).toBe(`/faq#${first.id}`);
    expect(links[0]!.getAttribute('aria-label')).toBe(`Link to this answer: ${first.question}`);
  });
});
