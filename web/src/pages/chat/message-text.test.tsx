import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageText } from './message-text';

afterEach(cleanup);

describe('MessageText', () => {
  it('makes web and e-mail addresses links, opening web pages in a new tab', () => {
    const { container } = render(
      <MessageText text="See https://example.com/a?b=1 or www.example.org, mail ops@example.com" />,
    );
    const links = [...container.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.getAttribute('target')]);
    expect(links).toEqual([
      ['https://example.com/a?b=1', '_blank'],
      ['https://www.example.org', '_blank'],
      ['mailto:ops@example.com', null],
    ]);
    expect(container.querySelector('a')?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
  });

  it('never renders the text as HTML, and makes no link of other schemes', () => {
    const { container } = render(
      <MessageText text={'<img src=x onerror=alert(1)> <b>bold</b> javascript:alert(1) data:text/html,hi'} />,
    );
    expect(container.querySelector('img, b')).toBeNull();
    expect(container.textContent).toBe(
      '<img src=x onerror=alert(1)> <b>bold</b> javascript:alert(1) data:text/html,hi',
    );
    for (const a of container.querySelectorAll('a')) expect(a.getAttribute('href')).toMatch(/^(https?|mailto):/);
  });
});
