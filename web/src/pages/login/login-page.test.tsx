/** Sign-in (spec §2, §3 login form, §5 banner) against a faked network. */

import { getContrastRatio } from '@mui/material/styles';
import { IDENTITY_PROVIDERS } from '@tessera/common/providers';
import { TWO_FACTOR_MESSAGES } from '@tessera/common/two-factor';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildTheme } from '../../app/theme';
import { errorOf, type } from '../../forms/test-fields';
import { useSettings } from '../../lib/settings';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests } from '../test-support';
import LoginPage from './login-page';
import { logoColour } from './provider-buttons';

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

describe('outside providers (issue 32)', () => {
  it('shows only the providers the server has set up', async () => {
    network.on('GET /auth/providers', { body: { providers: [{ id: 'github', name: 'GitHub' }] } });
    renderPage(<LoginPage />, '/login');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Sign in with GitHub' })).toBeTruthy());
    expect(screen.getAllByRole('link', { name: /^Sign in with / })).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Sign in with GitHub' }).getAttribute('href')).toBe('/oauth/github');
  });

  it('shows no provider buttons and no "or" when none is set up', async () => {
    network.on('GET /auth/providers', { body: { providers: [] } });
    renderPage(<LoginPage />, '/login');
    await waitFor(() => expect(network.calls.some((c) => c.path === '/auth/providers')).toBe(true));
    expect(screen.queryByRole('link', { name: /^Sign in with / })).toBeNull();
    expect(screen.queryByText('or')).toBeNull();
    // A failed answer shows none either, and no alert.
    expect(useStore.getState().alerts).toEqual([]);
  });

  it.each(['light', 'dark'] as const)('draws every logo at 3:1 or more against %s paper (WCAG 1.4.11)', (mode) => {
    const theme = buildTheme(mode);
    for (const provider of IDENTITY_PROVIDERS) {
      for (const background of [theme.palette.background.paper, theme.palette.background.default]) {
        const ratio = getContrastRatio(logoColour(provider, mode), background);
        expect(ratio, `${provider.name} on ${background}`).toBeGreaterThanOrEqual(3);
      }
    }
  });
});

describe('two-factor code step (issue 32)', () => {
  async function toCodeStep() {
    network.on('POST /auth/login', { body: { location: '/login', twoFactor: true } });
    useSettings.getState().update({ email: '' });
    renderPage(<LoginPage />, '/login');
    type('Email', 'ada@acme.test');
    type('Password', 'Secret-passw0rd!');
    fireEvent.click(signIn());
    await screen.findByRole('heading', { name: 'Two-factor sign-in' });
  }

  it('asks for the code after the password and signs in with it', async () => {
    await toCodeStep();
    expect(network.went).toEqual([]);
    network.on('POST /auth/login/two-factor', { body: { location: '/usage' } });
    type('Authentication code', '123 456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(network.went.at(-1)).toBe('/usage'));
    expect(network.calls.find((c) => c.path === '/auth/login/two-factor')?.body).toEqual({ code: '123 456' });
  });

  it('takes a recovery code instead, and shows a wrong code on the field', async () => {
    await toCodeStep();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    network.on('POST /auth/login/two-factor', {
      status: 400,
      body: {
        error: TWO_FACTOR_MESSAGES.usedRecoveryCode,
        code: 'validation_failed',
        fields: [{ path: 'body.code', message: TWO_FACTOR_MESSAGES.usedRecoveryCode }],
      },
    });
    type('Recovery code', 'abcde-fghjk');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(errorOf('Recovery code')).toBe(TWO_FACTOR_MESSAGES.usedRecoveryCode));
  });

  it('goes back to the password, saying so, when the pending sign-in expired', async () => {
    await toCodeStep();
    network.on('POST /auth/login/two-factor', {
      status: 401,
      body: { error: TWO_FACTOR_MESSAGES.expired, code: 'unauthorized' },
    });
    type('Authentication code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(useStore.getState().alerts.map((a) => a.text)).toEqual([TWO_FACTOR_MESSAGES.expired]);
  });

  it('opens on the code step when an outside sign-in sent the browser there', async () => {
    // As navigation does: the query string in the page model.
    useStore.setState({ model: { twoFactor: 'code' } });
    renderPage(<LoginPage />, '/login?twoFactor=code');
    await screen.findByRole('heading', { name: 'Two-factor sign-in' });
  });
});
