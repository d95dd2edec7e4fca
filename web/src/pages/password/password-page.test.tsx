/**
 * The password page (spec §2, §4, §8; decision 0005) against a faked network. The fake plays the server's part
 * in the readable user cookie too, as Set-Cookie would.
 */
import { ANONYMOUS_USER, USER_COOKIE, type User } from '@tessera/common/entities';
import type { Role } from '@tessera/common/roles';
import { ROUTES } from '@tessera/common/routes';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { beginNavigation } from '../../app/navigation';
import { errorOf, field, type } from '../../forms/test-fields';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import PasswordPage from './password-page';

setupPageTests();

const ROUTE = ROUTES.find((r) => r.path === '/password/:action')!;

function setUserCookie(value: User | null): void {
  const cookie = value
    ? `${USER_COOKIE}=${encodeURIComponent(JSON.stringify(value))}; Path=/`
    : `${USER_COOKIE}=; Path=/; Max-Age=0`;
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server's part of writing the cookie
  document.cookie = cookie;
}
afterEach(() => setUserCookie(null));

const person = (role: Role): User => ({ ...user(7, role), email: 'ada@acme.test', expires: Date.now() + 3_600_000 });

function Location() {
  const { pathname, search } = useLocation();
  return <output data-testid="url">{`${pathname}${search}`}</output>;
}

/** The page at its route, so that leaving it (a guard's redirect) unmounts it as in the console. */
function open(action: string, search = '') {
  return renderPage(
    <>
      <Routes>
        <Route path="/password/:action" element={<PasswordPage route={ROUTE} params={{ action }} resource={null} />} />
        <Route path="*" element={null} />
      </Routes>
      <Location />
    </>,
    `/password/${action}${search}`,
  );
}

const location = () => screen.getByTestId('url').textContent;
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const heading = () => screen.getByTestId('page-title').textContent;
const token = (n: number) => `${n}-e-mailed-link-token-abcdefghijkl`;

function fillNewPassword(password = 'Abcdef1!') {
  type('New Password', password);
  type('Confirm New Password', password);
}

describe('forgot (spec §2, §4, §8)', () => {
  it('asks for an email, disables it once submitted, and goes to /login with the carried alert', async () => {
    network.on('POST /auth/forgot', { body: { sent: true } });
    open('forgot');
    expect(heading()).toBe('Forgot Password');
    type('Email', ' ada@acme.test ');
    click('Get a Reset Link');
    await waitFor(() => expect(network.went).toEqual(['/login']));
    expect(network.calls.find((c) => c.path === '/auth/forgot')?.body).toEqual({ email: 'ada@acme.test' });
    expect(field('Email').disabled).toBe(true);
    const expected = {
      type: 'success',
      title: 'Password Reset Requested',
      text: 'If there is an active API account for "ada@acme.test", then a password reset link will be sent. If it does not arrive in a few minutes, please check your junk or spam folder.',
    };
    expect(useStore.getState().carriedAlerts).toEqual([expected]);
    // The navigation to /login clears alerts but keeps the carried one, once.
    const socket = { send: () => undefined, clear: () => undefined };
    beginNavigation('/login', 'http://localhost/login', '', socket);
    expect(useStore.getState().alerts).toEqual([expected]);
    beginNavigation('/signup', 'http://localhost/signup', '', socket);
    expect(useStore.getState().alerts).toEqual([]);
  });

  it('checks the address before sending it', () => {
    open('forgot');
    click('Get a Reset Link');
    expect(errorOf('Email')).toBe('Please provide an email address.');
    type('Email', 'ada@');
    expect(errorOf('Email')).toBe('Please provide a valid email address.');
    expect(network.calls).toEqual([]);
  });

  it('gives the field back when the request fails, and stays put', async () => {
    network.on('POST /auth/forgot', { status: 429, body: { error: 'Too many e-mails. Try again later.' } });
    open('forgot');
    type('Email', 'ada@acme.test');
    click('Get a Reset Link');
    await waitFor(() => expect(useStore.getState().alerts[0]?.text).toBe('Too many e-mails. Try again later.'));
    await waitFor(() => expect(field('Email').disabled).toBe(false));
    expect(network.went).toEqual([]);
  });

  it('cancels to /login', () => {
    open('forgot');
    click('Cancel');
    expect(network.went).toEqual(['/login']);
  });
});

describe('e-mailed links (decision 0005)', () => {
  it('posts the token, takes it out of the address at once, and shows the form only once the link has answered', async () => {
    network.on('POST /auth/link', () => {
      setUserCookie(person('resetter'));
      return { body: { self: person('resetter') } };
    });
    useStore.setState({ model: { token: token(1) } });
    open('reset', `?token=${token(1)}`);
    expect(location()).toBe('/password/reset');
    expect(useStore.getState().model.token ?? '').toBe('');
    expect(network.calls).toEqual([{ method: 'POST', path: '/auth/link', body: { token: token(1) } }]);
    expect(screen.queryByLabelText('New Password')).toBeNull();
    expect(screen.getByText('Opening your link…')).toBeTruthy();
    await screen.findByLabelText('New Password');
    expect(heading()).toBe('Reset Password');
    expect(field('Email').value).toBe('ada@acme.test');
    expect(field('Email').readOnly).toBe(true);
    expect(screen.queryByLabelText('Current Password')).toBeNull();
    expect(network.calls.filter((c) => c.path === '/auth/link')).toHaveLength(1);
  });

  it('shows the server’s reason for a used or expired link, once, with a way to ask for a new one', async () => {
    const expired = 'This link has expired or has already been used. Please ask for a new one.';
    network.on('POST /auth/link', { status: 422, body: { error: expired, code: 'unprocessable' } });
    open('set', `?token=${token(2)}`);
    expect(location()).toBe('/password/set');
    const problem = await screen.findByTestId('link-problem');
    expect(problem.textContent).toContain(expired);
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/password/forgot');
    expect(screen.getAllByText(expired, { exact: false })).toHaveLength(1);
    expect(screen.queryByLabelText('New Password')).toBeNull();
  });

  it('without a token says to open the e-mailed link, and calls nothing', () => {
    open('set');
    expect(screen.getByTestId('link-problem').textContent).toContain(
      'Open the link from your e-mail to set a new password.',
    );
    expect(network.calls).toEqual([]);
  });

  it('after a reload (no token, the link’s session still open) shows the form', () => {
    signIn(person('resetter'));
    open('set');
    expect(heading()).toBe('Set Password');
    expect(field('New Password')).toBeTruthy();
  });
});

describe('saving a password (spec §2, §4, §8)', () => {
  const updated = { type: 'success', title: 'Password Updated', text: 'Your password has been updated successfully.' };

  it('set: posts the new password, refreshes the user and goes on to the agreement', async () => {
    setUserCookie(person('resetter'));
    signIn(person('resetter'));
    network.on('POST /auth/password/set', () => {
      setUserCookie(person('signer'));
      return { body: { self: person('signer'), location: '/terms' } };
    });
    open('set');
    fillNewPassword();
    click('Save Password');
    await waitFor(() => expect(network.went).toEqual(['/terms']));
    expect(network.calls.at(-1)?.body).toEqual({ newPassword: 'Abcdef1!' });
    expect(useStore.getState().self.role).toBe('signer');
    expect(useStore.getState().carriedAlerts).toEqual([updated]);
  });

  it('reset: signs nobody in, so goes to /login with the alert', async () => {
    setUserCookie(person('resetter'));
    signIn(person('resetter'));
    network.on('POST /auth/password/reset', () => {
      setUserCookie(null);
      return { body: { self: ANONYMOUS_USER, location: '/login' } };
    });
    open('reset');
    fillNewPassword();
    click('Save Password');
    await waitFor(() => expect(network.went).toEqual(['/login']));
    expect(useStore.getState().self.id).toBe(0);
    expect(useStore.getState().carriedAlerts).toEqual([updated]);
  });

  it('change: asks for the current password, shows the server’s refusal on it, then goes to /profile', async () => {
    setUserCookie(person('user'));
    signIn(person('user'));
    let accept = false;
    network.on('POST /auth/password/change', () =>
      accept
        ? { body: { self: person('user'), location: '/profile' } }
        : {
            status: 400,
            body: {
              error: 'The current password is incorrect.',
              code: 'validation_failed',
              fields: [{ path: 'body.password', message: 'The current password is incorrect.' }],
            },
          },
    );
    open('change');
    expect(heading()).toBe('Change Password');
    click('Save Password');
    expect(errorOf('Current Password')).toBe('Please provide your current password.');
    type('Current Password', 'Wrong1!x');
    fillNewPassword();
    click('Save Password');
    await waitFor(() => expect(errorOf('Current Password')).toBe('The current password is incorrect.'));
    expect(network.calls.at(-1)?.body).toEqual({ password: 'Wrong1!x', newPassword: 'Abcdef1!' });
    expect(network.went).toEqual([]);
    accept = true;
    type('Current Password', 'Right1!x');
    click('Save Password');
    await waitFor(() => expect(network.went).toEqual(['/profile']));
    expect(useStore.getState().carriedAlerts).toEqual([updated]);
  });

  it('change: sends someone not signed in to sign in first', () => {
    open('change');
    expect(location()).toBe(`/login?${new URLSearchParams({ returnTo: '/password/change' })}`);
  });

  it('refuses a weak or unconfirmed new password before sending anything', () => {
    signIn(person('resetter'));
    open('reset');
    type('New Password', 'abcdefgh');
    type('Confirm New Password', 'abcdefgi');
    click('Save Password');
    expect(errorOf('New Password')).toBe(
      'Please provide a password that is at least 8 characters long and contains at least one uppercase letter, lowercase letter, number, and symbol.',
    );
    expect(errorOf('Confirm New Password')).toBe('Passwords do not match');
    expect(screen.getByTestId('validation-banner')).toBeTruthy();
    expect(network.calls).toEqual([]);
  });

  it('cancels to /profile for users with access, otherwise to /login, ending a link session', async () => {
    signIn(person('user'));
    const { unmount } = open('change');
    click('Cancel');
    signIn(person('resetter'));
    unmount();
    open('reset');
    click('Cancel');
    expect(network.went).toEqual(['/profile', '/login']);
    await waitFor(() => expect(network.calls.map((c) => `${c.method} ${c.path}`)).toContain('PUT /auth/logout'));
  });
});
