import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it('keeps paths on this site', () => {
    expect(safeReturnPath('/usage?range=week#chart')).toBe('/usage?range=week#chart');
    expect(safeReturnPath('/keys/edit/3')).toBe('/keys/edit/3');
    expect(safeReturnPath('/%0a')).toBe('/%0a'); // an encoded newline is only text in a path
  });

  it('refuses anything a browser could read as another host', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'evil.example',
      '/\t/evil.example',
      '',
      null,
      42,
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBe('/');
    }
  });
});
