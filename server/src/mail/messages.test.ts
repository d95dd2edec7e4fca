import { describe, expect, it } from 'vitest';
import { actionLink, escapeHtml, resetPassword, setPassword, verifyEmail } from './messages';

const LINK = 'https://app.example/password/reset?token=tok123';
const HOSTILE = '<script>alert("x")</script> & co';

describe('actionLink', () => {
  it('builds the link from the public URL, the path and the URL-encoded token', () => {
    expect(actionLink('https://app.example', '/password/reset', 'tok')).toBe(
      'https://app.example/password/reset?token=tok',
    );
    expect(actionLink('https://app.example/', '/verify', 'a b/+=&?#')).toBe(
      'https://app.example/verify?token=a%20b%2F%2B%3D%26%3F%23',
    );
    expect(actionLink(new URL('http://localhost:3000'), '/verify', 't')).toBe('http://localhost:3000/verify?token=t');
  });

  it('keeps a path prefix of the public URL and nothing else from it', () => {
    expect(actionLink('https://app.example/tessera/', '/verify', 't')).toBe(
      'https://app.example/tessera/verify?token=t',
    );
    expect(actionLink('https://user:pw@app.example/?next=x#frag', '/verify', 't')).toBe(
      'https://app.example/verify?token=t',
    );
  });

  it('refuses paths that could point the link at another origin', () => {
    for (const path of [
      '//evil.example/x',
      'https://evil.example/x',
      '@evil.example',
      'verify',
      '/a?b=1',
      '/a#b',
      '/\\evil',
    ]) {
      expect(() => actionLink('https://app.example', path, 't'), path).toThrow(TypeError);
    }
  });

  it('always stays on the public origin', () => {
    for (const path of ['/', '/password/set', '/..', '/%2F%2Fevil.example', '/.evil.example']) {
      expect(new URL(actionLink('https://app.example', path, 'x@evil.example')).origin).toBe('https://app.example');
    }
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('account messages', () => {
  const builders = [
    { build: verifyEmail, subject: 'Verify your email for Tessera' },
    { build: resetPassword, subject: 'Reset your Tessera password' },
    { build: setPassword, subject: 'Set your Tessera password' },
  ];

  for (const { build, subject } of builders) {
    it(`${subject}: recipient, subject, link in text and HTML`, () => {
      const m = build({ to: 'jane@example.test', name: 'Jane', link: LINK });
      expect(m).toMatchObject({ to: 'jane@example.test', subject, link: LINK });
      expect(m.text).toContain('Hello Jane,');
      expect(m.text).toContain(LINK);
      expect(m.html).toContain(`href="${LINK}"`);
    });

    it(`${subject}: escapes every interpolated value in HTML`, () => {
      const link = 'https://app.example/x?token=a&b="c"';
      const m = build({ to: 'a<b>@example.test', name: HOSTILE, link });
      expect(m.html).not.toContain('<script>');
      expect(m.html).not.toContain('<b>');
      expect(m.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co');
      expect(m.html).toContain('href="https://app.example/x?token=a&amp;b=&quot;c&quot;"');
      expect(m.text).toContain(HOSTILE); // plain text needs no escaping
    });

    it(`${subject}: a blank name gives a plain greeting`, () => {
      expect(build({ to: 'j@example.test', name: '  ', link: LINK }).text).toMatch(/^Hello,\n/);
      expect(build({ to: 'j@example.test', link: LINK }).html).toContain('>Hello,</p>');
    });
  }

  it('the reset mail says how long the link lives, that it works once, and that ignoring it is safe', () => {
    const { text } = resetPassword({ to: 'j@example.test', name: 'J', link: LINK });
    expect(text).toContain('expires in 1 hour');
    expect(text).toContain('can be used once');
    expect(text).toContain('nothing changes');
  });

  it('the set-password mail says an administrator created the account', () => {
    expect(setPassword({ to: 'j@example.test', name: 'J', link: LINK }).text).toContain('An administrator has created');
  });
});
