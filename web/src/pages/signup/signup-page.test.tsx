/** Sign-up (spec §2, §4, §5, §8) against a faked network: the address check, its four states, and the sent view. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorOf, field, leave, type } from '../../forms/test-fields';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests } from '../test-support';
import SignupPage from './signup-page';

setupPageTests();

const preapprovals = () => network.calls.filter((c) => c.path === '/auth/preapprove');
const status = () => screen.getByTestId('signup-status');
const verify = () => screen.getByRole('button', { name: 'Verify email' }) as HTMLButtonElement;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answer(reply: { emailDomain?: string; organizationName?: string; acceptUsers?: boolean; userId?: number }) {
  network.on('POST /auth/preapprove', {
    body: { emailDomain: 'acme.test', organizationName: '', acceptUsers: false, userId: 0, ...reply },
  });
}

async function enter(email: string) {
  renderPage(<SignupPage />, '/signup');
  type('Email', email);
  leave('Email');
  await waitFor(() => expect(preapprovals()).toHaveLength(1));
}

describe('sign-up email states (spec §4, §8)', () => {
  it('asks for a valid work email (info) while nothing is known of the domain', () => {
    renderPage(<SignupPage />, '/signup');
    expect(field('Name')).toBeTruthy();
    expect(status().className).toContain('colorInfo');
    expect(status().textContent).toBe(
      'Please sign up with a valid work email address. Your account joins your organization once you verify it.',
    );
    expect(verify().disabled).toBe(false);
  });

  it('warns of an existing account and disables Verify email', async () => {
    answer({ userId: 12, organizationName: 'Acme', acceptUsers: true });
    await enter('ada@acme.test');
    await waitFor(() => expect(status().className).toContain('colorWarning'));
    expect(status().textContent).toBe('There is already a user account for ada@acme.test.');
    expect(verify().disabled).toBe(true);
    expect(preapprovals()[0]?.body).toEqual({ email: 'ada@acme.test' });
  });

  it('names the organization accepting the domain (success), with Verify email enabled', async () => {
    answer({ organizationName: 'Acme Corp', acceptUsers: true });
    await enter('ada@acme.test');
    await waitFor(() => expect(status().className).toContain('colorSuccess'));
    expect(status().textContent).toContain('Acme Corp');
    expect(verify().disabled).toBe(false);
  });

  it('says no organization accepts the domain (error), and disables Verify email', async () => {
    answer({ emailDomain: 'elsewhere.test', organizationName: 'Elsewhere', acceptUsers: false });
    await enter('bob@elsewhere.test');
    await waitFor(() => expect(status().className).toContain('colorError'));
    expect(status().textContent).toBe(
      'Sorry, there is no organization accepting new users with emails ending in elsewhere.test. Please contact your administrator to create an account for you.',
    );
    expect(verify().disabled).toBe(true);
  });

  it('goes back to the info message once the address changes', async () => {
    answer({ userId: 12 });
    await enter('ada@acme.test');
    await waitFor(() => expect(verify().disabled).toBe(true));
    type('Email', 'ada@acme.tes');
    expect(status().className).toContain('colorInfo');
    expect(verify().disabled).toBe(false);
  });
});

describe('when the address is checked (spec §5)', () => {
  it('checks the shape first: an invalid address is never sent, and its field says why', async () => {
    answer({});
    renderPage(<SignupPage />, '/signup');
    type('Email', 'ada@acme');
    leave('Email');
    await sleep(400);
    expect(preapprovals()).toHaveLength(0);
    expect(errorOf('Email')).toBe('Please provide a valid email address.');
  });

  it('asks 250 ms after typing stops, once the address is valid, and only for the last one', async () => {
    answer({ acceptUsers: true, organizationName: 'Acme' });
    renderPage(<SignupPage />, '/signup');
    type('Email', 'ada@acme.te');
    await sleep(150);
    type('Email', 'ada@acme.test');
    await sleep(150);
    expect(preapprovals()).toHaveLength(0); // a timer never fires early: 150 ms after the last input is too soon
    await waitFor(() => expect(preapprovals()).toHaveLength(1));
    expect(preapprovals()[0]?.body).toEqual({ email: 'ada@acme.test' });
    await waitFor(() => expect(status().className).toContain('colorSuccess'));
    leave('Email'); // the same address is not asked again
    await sleep(50);
    expect(preapprovals()).toHaveLength(1);
  });

  it('stays usable after a 429: the reason is alerted, the form can still be sent, leaving the field asks again', async () => {
    network.on('POST /auth/preapprove', {
      status: 429,
      body: { error: 'Too many checks from here. Please wait a minute and try again.', code: 'rate_limited' },
    });
    await enter('ada@acme.test');
    await waitFor(() =>
      expect(useStore.getState().alerts.map((a) => a.text)).toContain(
        'Too many checks from here. Please wait a minute and try again.',
      ),
    );
    expect(screen.getByText('Too many checks from here. Please wait a minute and try again.')).toBeTruthy();
    expect(status().className).toContain('colorInfo');
    expect(verify().disabled).toBe(false);
    answer({ acceptUsers: true, organizationName: 'Acme' });
    leave('Email');
    await waitFor(() => expect(preapprovals()).toHaveLength(2));
    await waitFor(() => expect(status().className).toContain('colorSuccess'));
  });
});

describe('sending the sign-up (spec §2, §4)', () => {
  it('requires a name and an email before anything is sent', () => {
    renderPage(<SignupPage />, '/signup');
    fireEvent.click(verify());
    expect(screen.getByTestId('validation-banner').textContent).toContain('Validation failed.');
    expect(errorOf('Name')).toBe('Please provide a name.');
    expect(errorOf('Email')).toBe('Please provide an email address.');
    expect(network.calls.filter((c) => c.path === '/auth/signup')).toHaveLength(0);
  });

  it('posts name and email, then shows Verify Your Email with the spam-folder hint', async () => {
    answer({ acceptUsers: true, organizationName: 'Acme' });
    network.on('POST /auth/signup', { body: { sent: true } });
    await enter(' ada@acme.test ');
    type('Name', ' Ada Lovelace ');
    fireEvent.click(verify());
    const sent = await screen.findByTestId('signup-sent');
    expect(network.calls.find((c) => c.path === '/auth/signup')?.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@acme.test',
    });
    expect(sent.textContent).toContain('Verify Your Email');
    expect(sent.textContent).toContain('ada@acme.test');
    expect(sent.textContent).toContain('please check your junk or spam folder');
    expect(screen.queryByLabelText('Email')).toBeNull();
  });

  it("keeps the form and says so when the reply is not 'sent'", async () => {
    answer({ acceptUsers: true, organizationName: 'Acme' });
    network.on('POST /auth/signup', { body: { sent: false } });
    await enter('ada@acme.test');
    type('Name', 'Ada Lovelace');
    fireEvent.click(verify());
    await waitFor(() => expect(useStore.getState().alerts.map((a) => a.title)).toEqual(['Email Not Sent']));
    expect(screen.queryByTestId('signup-sent')).toBeNull();
    expect(screen.queryByText('Verify Your Email')).toBeNull();
    expect(field('Email').value).toBe('ada@acme.test');
    expect(verify().disabled).toBe(false);
  });

  it('offers the configured providers as "Sign up with …"', async () => {
    network.on('GET /auth/providers', {
      body: { providers: ['google', 'microsoft', 'github', 'linkedin'].map((id) => ({ id, name: id })) },
    });
    renderPage(<SignupPage />, '/signup');
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: /^Sign up with / }).map((a) => a.textContent)).toEqual([
        'Sign up with Google',
        'Sign up with Microsoft',
        'Sign up with GitHub',
        'Sign up with LinkedIn',
      ]),
    );
  });
});
