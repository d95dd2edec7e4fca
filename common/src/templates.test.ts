import { describe, expect, it } from 'vitest';
import { mayEditTemplate, maySeeTemplate, positionIn } from './templates';

describe('templates', () => {
  it('gives 1-based line and column of an offset', () => {
    expect(positionIn('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(positionIn('{\n  "a": foo bar\n}', 13)).toEqual({ line: 2, column: 12 });
    expect(positionIn('a\n', 99)).toEqual({ line: 2, column: 1 });
  });

  it('lets super+ alone edit system templates; others by adminIds; sight by organization or adminIds', () => {
    const system = { organizationId: null, adminIds: [7] };
    const own = { organizationId: 10, adminIds: [7, 20] };
    expect(mayEditTemplate({ id: 1, role: 'super', organizationId: null }, system)).toBe(true);
    expect(mayEditTemplate({ id: 7, role: 'admin', organizationId: 10 }, system)).toBe(false);
    expect(mayEditTemplate({ id: 7, role: 'user', organizationId: 99 }, own)).toBe(true);
    expect(mayEditTemplate({ id: 8, role: 'user', organizationId: 20 }, own)).toBe(true);
    expect(mayEditTemplate({ id: 8, role: 'admin', organizationId: 10 }, own)).toBe(false);
    expect(maySeeTemplate({ id: 8, role: 'user', organizationId: 10 }, own)).toBe(true);
    expect(maySeeTemplate({ id: 8, role: 'admin', organizationId: 30 }, own)).toBe(false);
    expect(maySeeTemplate({ id: 8, role: 'admin', organizationId: 30 }, system)).toBe(true);
  });
});
