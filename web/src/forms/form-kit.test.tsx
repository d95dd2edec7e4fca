/** The form kit in a real DOM: blur-then-input timing, optional fields, the banner, the password fields. */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api';
import { network, setupPageTests } from '../pages/test-support';
import { CheckboxInput, ConfirmPasswordField, FormContainer, NewPasswordField, TextInput, useForm } from '.';
import { errorOf, field, leave, type } from './test-fields';

setupPageTests();

const PASSWORD_MESSAGE =
  'Please provide a password that is at least 8 characters long and contains at least one uppercase letter, lowercase letter, number, and symbol.';

function Harness({ onValid }: { onValid: (values: Record<string, string>) => unknown }) {
  const form = useForm({ name: '', email: '', website: '', newPassword: '', newPassword2: '' });
  return (
    <FormContainer form={form} onValid={onValid}>
      <TextInput name="name" label="Name" />
      <TextInput name="email" label="Email" rule="email" />
      <TextInput name="website" label="Website" rule="url" optional />
      <NewPasswordField />
      <ConfirmPasswordField />
      <button type="submit">Save</button>
      <output data-testid="submitted">{String(form.submitted)}</output>
    </FormContainer>
  );
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('when a field validates (spec §5)', () => {
  it('stays quiet while typed into before it is first left, then checks on blur', () => {
    render(<Harness onValid={vi.fn()} />);
    type('Email', 'ada@');
    expect(errorOf('Email')).toBeUndefined();
    leave('Email');
    expect(errorOf('Email')).toBe('Please provide a valid email address.');
  });

  it('checks on every input once it has been left, without another blur', () => {
    render(<Harness onValid={vi.fn()} />);
    type('Email', 'ada@');
    leave('Email');
    type('Email', 'ada@acme.test');
    expect(errorOf('Email')).toBeUndefined();
    type('Email', 'ada@acme');
    expect(errorOf('Email')).toBe('Please provide a valid email address.');
  });

  it('fails a blank or whitespace required field with "Please provide {what}."', () => {
    render(<Harness onValid={vi.fn()} />);
    type('Name', '   ');
    leave('Name');
    expect(errorOf('Name')).toBe('Please provide a name.');
    leave('Email');
    expect(errorOf('Email')).toBe('Please provide an email address.');
  });

  it('skips an empty optional field, and checks it once it holds something', () => {
    render(<Harness onValid={vi.fn()} />);
    leave('Website');
    expect(errorOf('Website')).toBeUndefined();
    type('Website', 'acme.test');
    expect(errorOf('Website')).toBe('Please provide a valid URL.');
    type('Website', '');
    expect(errorOf('Website')).toBeUndefined();
  });

  it('limits a field to its rule’s length', () => {
    render(<Harness onValid={vi.fn()} />);
    expect(field('Email').maxLength).toBe(100);
    expect(field('New Password').maxLength).toBe(100);
  });
});

describe('the form container (spec §3-5)', () => {
  it('on a failing submit shows the banner, lists and marks every error, and does not call onValid', () => {
    const onValid = vi.fn();
    render(<Harness onValid={onValid} />);
    type('Email', 'ada@');
    submit();
    const banner = screen.getByTestId('validation-banner');
    expect(banner.textContent).toContain('Validation failed.');
    expect(banner.textContent).toContain('Please fix the error(s) below, and try again.');
    expect(
      within(banner)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Name: Please provide a name.',
      'Email: Please provide a valid email address.',
      'New Password: Please provide a new password.',
      'Confirm New Password: Please provide the new password again.',
    ]);
    expect(errorOf('Name')).toBe('Please provide a name.');
    expect(errorOf('Website')).toBeUndefined();
    expect(document.activeElement).toBe(field('Name'));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByTestId('submitted').textContent).toBe('false');
  });

  it('after a failed submit checks on input, and drops the banner once everything passes', () => {
    render(<Harness onValid={vi.fn()} />);
    submit();
    type('Name', 'Ada');
    expect(errorOf('Name')).toBeUndefined();
    type('Email', 'ada@acme.test');
    type('New Password', 'Abcdef1!');
    expect(screen.getByTestId('validation-banner')).toBeTruthy();
    type('Confirm New Password', 'Abcdef1!');
    expect(screen.queryByTestId('validation-banner')).toBeNull();
  });

  it('becomes submitted and calls onValid with the values when every field passes', async () => {
    const onValid = vi.fn();
    render(<Harness onValid={onValid} />);
    type('Name', 'Ada');
    type('Email', 'ada@acme.test');
    type('New Password', 'Abcdef1!');
    type('Confirm New Password', 'Abcdef1!');
    submit();
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]?.[0]).toEqual({
      name: 'Ada',
      email: 'ada@acme.test',
      website: '',
      newPassword: 'Abcdef1!',
      newPassword2: 'Abcdef1!',
    });
    expect(screen.getByTestId('submitted').textContent).toBe('true');
    expect(screen.queryByTestId('validation-banner')).toBeNull();
  });

  it('puts a 400 reply’s fields back onto the fields of the same name, and is no longer submitted', async () => {
    network.on('POST /v2/things', {
      status: 400,
      body: {
        error: 'Invalid input: body.email.',
        code: 'validation_failed',
        fields: [{ path: 'body.email', message: 'That address is taken.' }],
      },
    });
    render(<Harness onValid={(values) => api.post('/v2/things', values)} />);
    type('Name', 'Ada');
    type('Email', 'ada@acme.test');
    type('New Password', 'Abcdef1!');
    type('Confirm New Password', 'Abcdef1!');
    submit();
    await waitFor(() => expect(errorOf('Email')).toBe('That address is taken.'));
    expect(screen.getByTestId('validation-banner').textContent).toContain('Email: That address is taken.');
    expect(screen.getByTestId('submitted').textContent).toBe('false');
  });
});

describe('password fields (spec §5)', () => {
  const items = () =>
    within(screen.getByTestId('password-checklist'))
      .getAllByRole('listitem')
      .map((li) => `${li.textContent} ${li.getAttribute('data-met')}`.replace(/, (not )?met /, ' '));

  it('shows the checklist, marking each item as it is met, and turns success when all are', () => {
    render(<Harness onValid={vi.fn()} />);
    const checklist = screen.getByTestId('password-checklist');
    expect(items()).toEqual([
      '1 uppercase letter false',
      '1 lowercase letter false',
      '1 number false',
      '1 symbol false',
      '8 characters total false',
    ]);
    type('New Password', 'abc1');
    expect(items()).toEqual([
      '1 uppercase letter false',
      '1 lowercase letter true',
      '1 number true',
      '1 symbol false',
      '8 characters total false',
    ]);
    expect(checklist.getAttribute('data-complete')).toBe('false');
    expect(checklist.className).not.toContain('colorSuccess');
    type('New Password', 'Abcdef1!');
    expect(items().every((i) => i.endsWith('true'))).toBe(true);
    expect(screen.getByText('1 symbol').textContent).toBe('1 symbol, met');
    expect(checklist.getAttribute('data-complete')).toBe('true');
    expect(checklist.className).toContain('colorSuccess');
  });

  it('refuses a weak new password with the spec’s password message', () => {
    render(<Harness onValid={vi.fn()} />);
    type('New Password', 'abcdefgh');
    leave('New Password');
    expect(errorOf('New Password')).toBe(PASSWORD_MESSAGE);
  });

  it('requires the confirmation to match, and re-checks it when the new password changes', () => {
    render(<Harness onValid={vi.fn()} />);
    type('New Password', 'Abcdef1!');
    type('Confirm New Password', 'Abcdef1?');
    leave('Confirm New Password');
    expect(errorOf('Confirm New Password')).toBe('Passwords do not match');
    type('New Password', 'Abcdef1?');
    expect(errorOf('Confirm New Password')).toBeUndefined();
    type('Confirm New Password', 'Abcdef1? ');
    expect(errorOf('Confirm New Password')).toBe('Passwords do not match');
  });
});

describe('checkboxes', () => {
  it('hold "true" or "" as the spec’s form models do', async () => {
    const onValid = vi.fn();
    function Accepting() {
      const form = useForm({ acceptUsers: '' });
      return (
        <FormContainer form={form} onValid={onValid}>
          <CheckboxInput name="acceptUsers" label="Accept new users" />
          <button type="submit">Save</button>
        </FormContainer>
      );
    }
    render(<Accepting />);
    fireEvent.click(field('Accept new users'));
    submit();
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ acceptUsers: 'true' }));
  });
});
