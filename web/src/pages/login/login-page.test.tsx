/** Sign-in (spec §2, §3 login form, §5 banner) against a faked network. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorOf, type } from '../../forms/test-fields';
import { useSettings } from '../../lib/settings';
import { network, renderPage, setupPageTests } from '../test-support';
import LoginPage from './login-page';

setupPageTests();

const signIn = () => screen.getByRole('button', { name: 'Sign in' });
const logins = () => network.calls.filter((c) => c.path === '/auth/login');

describe('sign-in form (spec §2, §3, §5)', () => {
  it("shows the 'Validation failed.' banner when sent empty, and sends nothing", () => {
    useSettings.getState().update({ email: '' });
    renderPage(<LoginPage />, '/login');
    fireEvent.click(signIn());
    const banner = screen.getByTestId('validation-banner');
    expect(banner.textContent).toContain('Validation failed.');
    expect(banner.textContent).toContain('Please fix the error(s) below, and try again.');
    expect(errorOf('Email')).toBe('Please provide an email address.');
    expect(errorOf('Password')).toBe('Please provide a password.');
    expect(logins()).toHaveLength(0);
  });

  it("sends 'remember' as the form value, 'true' or empty, and keeps the email only when it is 'true'", async () => {
    network.on('POST /auth/login', { body: { location: '/' } });
    for (const remember of [false, true]) {
      useSettings.getState().update({ email: '' });
      const { unmount } = renderPage(<LoginPage />, '/login');
      type('Email', ' ada@acme.test ');
      type('Password', 'Secret-passw0rd!');
      const box = screen.getByLabelText('Remember me') as HTMLInputElement;
      if (box.checked !== remember) fireEvent.click(box);
      fireEvent.click(signIn());
      await waitFor(() => expect(network.went.at(-1)).toBe('/'));
      expect(logins().at(-1)?.body).toEqual({
        email: 'ada@acme.test',
        password: 'Secret-passw0rd!',
        remember: remember ? 'true' : '',
      });
      expect(useSettings.getState().email).toBe(remember ? 'ada@acme.test' : '');
      unmount();
    }
  });

  it('starts with the remembered email and Remember me ticked', () => {
    useSettings.getState().update({ email: 'ada@acme.test' });
    renderPage(<LoginPage />, '/login');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@acme.test');
    expect((screen.getByLabelText('Remember me') as HTMLInputElement).checked).toBe(true);
  });
});
