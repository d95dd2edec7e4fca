/**
 * Keyboard focus as a person tabbing through a page sees it (issue 32 item 11; WCAG 2.4.7 Focus Visible, 2.4.11
 * Focus Not Obscured, 1.4.11 Non-text Contrast): each control Tab reaches must show a ring (an outline of 2 px or
 * more, on itself or on the field around it) that it does not show unfocused, in a colour at 3:1 or more against
 * what is behind the ring, and must not sit under the fixed top bar and its status bars.
 */
import type { Page } from 'playwright-core';
import { settle } from './state-checks';

/** How a focused element looks: its ring, if any, and whether the top bar hides it. */
interface FocusLook {
  /** A short name for messages: tag, role, accessible text. */
  name: string;
  /** Outline and box-shadow of the element and its two nearest ancestors ('' where none). */
  rings: string[];
  /** The best ring found: its width in px and contrast against the colour behind it. */
  ringWidth: number;
  ringContrast: number;
  /** px of the element under the top bar (0 unless it is outside the bar). */
  hidden: number;
}

/** Reads the focused element's look; runs in the page. */
function readFocus(): FocusLook | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return null;
  const parse = (c: string): [number, number, number, number] => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m?.[1]) return [0, 0, 0, 0];
    const [r = 0, g = 0, b = 0, a = 1] = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r, g, b, a];
  };
  const luminance = ([r, g, b]: number[]) => {
    const lin = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  };
  /** The opaque colour behind `node`: its own background or the nearest ancestor's, blended down to the page. */
  const backgroundOf = (node: Element | null): number[] => {
    const layers: number[][] = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let out = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse())
      out = [r! * a! + out[0]! * (1 - a!), g! * a! + out[1]! * (1 - a!), b! * a! + out[2]! * (1 - a!)];
    return out;
  };
  const chain = [el, el.parentElement, el.parentElement?.parentElement].filter((n): n is HTMLElement => !!n);
  let ringWidth = 0;
  let ringContrast = 0;
  const rings = chain.map((n) => {
    const s = getComputedStyle(n);
    const width = s.outlineStyle === 'none' ? 0 : Number.parseFloat(s.outlineWidth);
    if (width > ringWidth) {
      // Behind an outer ring is the parent's background; behind an inset one, the element's own.
      const behind = backgroundOf(Number.parseFloat(s.outlineOffset) < 0 ? n : n.parentElement);
      const ring = parse(s.outlineColor);
      const [a, b] = [luminance(ring) + 0.05, luminance(behind) + 0.05];
      ringWidth = width;
      ringContrast = Math.max(a, b) / Math.min(a, b);
    }
    return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} ${s.outlineOffset} | ${s.boxShadow}`;
  });
  const bar = document.querySelector('header');
  let hidden = 0;
  if (bar && !bar.contains(el))
    hidden = Math.max(0, bar.getBoundingClientRect().bottom - el.getBoundingClientRect().top);
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
  const name = `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${text}"`;
  return { name, rings, ringWidth, ringContrast, hidden };
}

/**
 * The problems of the control focused now: no ring, a ring the same as unfocused, a ring under 3:1, or hidden under
 * the top bar. It is seen focused, then blurred and seen at rest, then focused again (so a next Tab goes on from it).
 */
export async function focusProblems(page: Page, label: string): Promise<string[]> {
  await settle(page);
  const focused = await page.evaluate(readFocus);
  if (!focused) return [];
  const handle = await page.evaluateHandle(() => document.activeElement as HTMLElement);
  await handle.evaluate((el) => el.blur());
  await settle(page);
  const rest = await handle.evaluate((el) =>
    [el, el.parentElement, el.parentElement?.parentElement]
      .filter((n): n is HTMLElement => !!n)
      .map((n) => {
        const s = getComputedStyle(n);
        return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} ${s.outlineOffset} | ${s.boxShadow}`;
      }),
  );
  await handle.evaluate((el) => el.focus({ preventScroll: true }));
  await handle.dispose();
  const where = `${label}: ${focused.name}`;
  const problems: string[] = [];
  if (focused.ringWidth < 2) problems.push(`${where} shows no focus ring: ${focused.rings.join(' / ')}`);
  else if (focused.rings.join() === rest.join()) problems.push(`${where} looks the same focused and not`);
  else if (focused.ringContrast < 3)
    problems.push(`${where} has a focus ring at ${focused.ringContrast.toFixed(2)}:1 (needs 3:1)`);
  if (focused.hidden > 0) problems.push(`${where} is ${Math.round(focused.hidden)} px under the top bar`);
  return problems;
}

/** Presses Tab (or Shift+Tab) `steps` times from where the focus is, with `focusProblems` after each press. */
export async function tabThrough(
  page: Page,
  label: string,
  steps: number,
  options: { backwards?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i < steps; i += 1) {
    await page.keyboard.press(key);
    problems.push(...(await focusProblems(page, `${label}, ${key} ${i + 1}`)));
  }
  return problems;
}
