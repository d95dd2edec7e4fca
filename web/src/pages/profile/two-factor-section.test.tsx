/** Two-factor sign-in on the profile (issue 32 item 9) against a faked network. */
import { TWO_FACTOR_MESSAGES, type TwoFactorStatus } from '@tessera/common/two-factor';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorOf, type } from '../../forms/test-fields';
import { useStore } from '../../lib/store';
import { network, renderPage, setupPageTests, signIn, user } from '../test-support';
import { TwoFactorSection } from './two-factor-section';

setupPageTests();

const OFF: TwoFactorStatus = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
const ON: TwoFactorStatus = {
  enabled: true,
  enabledAt: '2026-11-01T10:00:00.000Z',
  recoveryCodesLeft: 9,
  required: false,
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-efgh${i + 2}`);

beforeEach(() => {
  signIn(user(7, 'user'));
});

const status = (twoFactor: TwoFactorStatus) => network.on('GET /auth/two-factor', { body: { twoFactor } });

describe('two-factor sign-in on the profile', () => {
  it('turns on: QR code and the secret as text, the first code, then the recovery codes once', async () => {
    status(OFF);
    network.on('POST /auth/two-factor/enrol', {
      body: {
        enrolment: {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          uri: 'otpauth://x',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
        },
      },
    });
    network.on('POST /auth/two-factor/confirm', { body: { recoveryCodes: CODES } });
    renderPage(<TwoFactorSection />, '/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    expect((await within(dialog).findByRole('img', { name: /QR code/ })).getAttribute('src')).toMatch(/^data:image/);
    expect(within(dialog).getByTestId('two-factor-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    type('Code from the app', '123456');
    status(ON);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(
      within(screen.getByTestId('recovery-codes'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(network.calls.find((c) => c.path === '/auth/two-factor/confirm')?.body).toEqual({ code: '123456' });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.getByTestId('two-factor-status').textContent).toContain('9 of 10 recovery codes left'),
    );
  });

  it('shows a wrong first code on its field', async () => {
    status(OFF);
    network.on('POST /auth/two-factor/enrol', {
      body: {
        enrolment: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://x', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+' },
      },
    });
    const message = TWO_FACTOR_MESSAGES.wrongCode;
    network.on('POST /auth/two-factor/confirm', {
      status: 400,
      body: { error: message, code: 'validation_failed', fields: [{ path: 'body.code', message }] },
    });
    renderPage(<TwoFactorSection />, '/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor sign-in' }));
    await screen.findByTestId('two-factor-secret');
    type('Code from the app', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(errorOf('Code from the app')).toBe(message));
  });

  it('opens the set-up by itself, with the requirement said, when staff are sent to turn it on', async () => {
    status({ ...OFF, required: true });
    network.on('POST /auth/two-factor/enrol', {
      body: {
        enrolment: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://x', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+' },
      },
    });
    useStore.setState({ model: { twoFactor: 'enrol' } });
    renderPage(<TwoFactorSection />, '/profile?twoFactor=enrol');
    await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    expect(screen.getByTestId('two-factor-required').textContent).toBe(TWO_FACTOR_MESSAGES.required);
  });

  it('turns off after the password, and makes new recovery codes after a code', async () => {
    status(ON);
    network.on('POST /auth/two-factor/recovery-codes', { body: { recoveryCodes: CODES } });
    network.on('POST /auth/two-factor/disable', { body: { twoFactor: OFF } });
    renderPage(<TwoFactorSection />, '/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    type('Code from the app, or a recovery code', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Make new codes' }));
    await screen.findByRole('dialog', { name: 'Your new recovery codes' });
    expect(network.calls.find((c) => c.path === '/auth/two-factor/recovery-codes')?.body).toEqual({ code: '654321' });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));

    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    type('Or your password', 'Secret-passw0rd!');
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Turn off two-factor sign-in' })).getByRole('button', {
        name: 'Turn off',
      }),
    );
    await waitFor(() => expect(screen.getByTestId('two-factor-status').textContent).toMatch(/^Off\./));
    expect(network.calls.find((c) => c.path === '/auth/two-factor/disable')?.body).toEqual({
      password: 'Secret-passw0rd!',
    });
  });

  it('offers no "Turn off" when the role requires it', async () => {
    status({ ...ON, required: true });
    renderPage(<TwoFactorSection />, '/profile');
    await screen.findByRole('button', { name: 'New recovery codes' });
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
  });
});
