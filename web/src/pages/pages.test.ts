import { describe, expect, it } from 'vitest';
import { resourceText } from './frame/frame-page';

describe('resource summaries', () => {
  it('name the action and the ids the address carries', () => {
    expect(resourceText('Contract', { mode: 'view', ids: [12] })).toBe('Viewing contract 12');
    expect(resourceText('User', { mode: 'delete', ids: [5, 6] })).toBe('Deleting users 5, 6');
    expect(resourceText('Template', { mode: 'create', ids: [] })).toBe('Creating a new template');
    expect(resourceText('Template', { mode: 'create', ids: [3] })).toBe('Creating a template from template 3');
  });
});
