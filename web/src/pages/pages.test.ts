import { describe, expect, it } from 'vitest';
import { errorCode } from './error/error-page';
import { resourceText } from './frame/frame-page';
import { validateLogin } from './login/login-page';

describe('error page code (spec §2)', () => {
  it('comes from the route, defaulting to 404 for none or nonsense', () => {
    expect([errorCode('403'), errorCode(undefined), errorCode('abc'), errorCode('99'), errorCode('418')]).toEqual([
      403, 404, 404, 404, 418,
    ]);
  });
});

describe('resource summaries', () => {
  it('name the action and the ids the address carries', () => {
    expect(resourceText('Contract', { mode: 'view', ids: [12] })).toBe('Viewing contract 12');
    expect(resourceText('User', { mode: 'delete', ids: [5, 6] })).toBe('Deleting users 5, 6');
    expect(resourceText('Template', { mode: 'create', ids: [] })).toBe('Creating a new template');
    expect(resourceText('Template', { mode: 'create', ids: [3] })).toBe('Creating a template from template 3');
  });
});

describe('sign-in form checks', () => {
  it('asks for a valid email and a password', () => {
    expect(validateLogin('', '')).toEqual({
      email: 'Please provide an email address.',
      password: 'Please provide a password.',
    });
    expect(validateLogin('ada@', 'x')).toEqual({ email: 'Please provide a valid email address.' });
    expect(validateLogin(' ada@acme.test ', 'x')).toEqual({});
  });
});
