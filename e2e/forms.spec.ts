/**
 * Spec §5 form behaviour on the real screens, in Chromium: when a field shows its error (not while first typed,
 * on leaving it, then on every input), optional fields, the 'Validation failed.' banner, each §5 message the
 * screens can produce, the new-password checklist, the length limits; and the sign-up address check (§4 states,
 * §5 shape before pre-approval, §8 texts).
 */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { VALIDATION_FAILED_ALERT } from '@tessera/common/alerts';
import { DEBOUNCE_MS } from '@tessera/common/constants';
import { MAX_LENGTH, MESSAGES, PASSWORD_CHECKS } from '@tessera/common/validation';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, signInAsRoot, signInWithForm, useServerAndBrowser } from './support/browser';
import {
  bannerItems,
  checklist,
  field,
  fieldError,
  hasFocus,
  severityOf,
  typeInto,
  validationBanner,
  visit,
} from './support/forms';
import { seedUser } from './support/server';

const fay = seedUser('user', { name: 'Fay Fields' });

const env = useServerAndBrowser({ users: [fay] });

/** The checklist's items, in display order: uppercase, lowercase, number, symbol, length. */
const [UPPER, LOWER, NUMBER, SYMBOL, LENGTH] = PASSWORD_CHECKS.map((c) => c.label);

/** The checklist's met items, in display order. */
const metItems = async (page: Page) => (await checklist(page)).met;

/** Waits until a field holds `value` (the form has taken the input), then reads its error. */
async function errorAfterInput(page: Page, label: string, value: string): Promise<string> {
  await expect.poll(() => field(page, label).inputValue()).toBe(value);
  return fieldError(page, label);
}

async function openSignup(page: Page) {
  await page.goto(`${env.server.url}/signup`);
  await expect.poll(() => page.title()).toBe('Tessera - Sign Up');
}

async function openPasswordChange(page: Page) {
  await signInWithForm(page, env.server.url, fay);
  await page.goto(`${env.server.url}/password/change`);
  await expect.poll(() => page.title()).toBe('Tessera - Change Password');
}

describe('when a field shows its error (spec §5)', () => {
  it('shows nothing while an address is first typed, the error once the field is left, then follows every input', async () => {
    const { context, page } = await newPage(env.browser);
    await openSignup(page);
    // Name has the focus on arrival, and no error while it keeps it.
    await expect.poll(() => hasFocus(page, 'Name')).toBe(true);
    expect(await fieldError(page, 'Name')).toBe('');

    // Typing the address leaves Name blank: only now it says so.
    await typeInto(page, 'Email', 'grace@acme');
    await expect.poll(() => fieldError(page, 'Name')).toBe(MESSAGES.required('a name'));
    expect(await errorAfterInput(page, 'Email', 'grace@acme')).toBe('');
    await field(page, 'Email').blur();
    await expect.poll(() => fieldError(page, 'Email')).toBe(MESSAGES.email);

    // Now every input re-checks: still wrong, still wrong, then fixed by the last letter.
    await typeInto(page, 'Email', '.');
    expect(await errorAfterInput(page, 'Email', 'grace@acme.')).toBe(MESSAGES.email);
    await typeInto(page, 'Email', 'i');
    expect(await errorAfterInput(page, 'Email', 'grace@acme.i')).toBe(MESSAGES.email);
    await typeInto(page, 'Email', 'o');
    expect(await errorAfterInput(page, 'Email', 'grace@acme.io')).toBe('');
    expect(await hasFocus(page, 'Email')).toBe(true);

    // Emptied while still in the field: the required message comes at once.
    await field(page, 'Email').fill('');
    await expect.poll(() => fieldError(page, 'Email')).toBe(MESSAGES.required('an email address'));
    expect(await hasFocus(page, 'Email')).toBe(true);
    await typeInto(page, 'Email', 'g');
    expect(await errorAfterInput(page, 'Email', 'g')).toBe(MESSAGES.email);

    // Name, once left, follows its input too: fixed by the first letter, blank again with spaces only.
    await typeInto(page, 'Name', 'G');
    expect(await errorAfterInput(page, 'Name', 'G')).toBe('');
    await field(page, 'Name').fill('   ');
    await expect.poll(() => fieldError(page, 'Name')).toBe(MESSAGES.required('a name'));
    await context.close();
  });

  it('ticks the new-password checklist off one requirement at a time, shows the password rule, and needs a matching confirmation', async () => {
    const { context, page } = await newPage(env.browser);
    await openPasswordChange(page);

    expect(await checklist(page)).toEqual({ met: [], complete: false, severity: 'info' });
    expect(
      await page
        .getByTestId('password-checklist')
        .locator('li')
        .evaluateAll((lis) => lis.length),
    ).toBe(PASSWORD_CHECKS.length);

    await typeInto(page, 'New Password', 'a');
    await expect.poll(() => metItems(page)).toEqual([LOWER]);
    expect(await fieldError(page, 'New Password')).toBe('');
    await field(page, 'New Password').blur();
    await expect.poll(() => fieldError(page, 'New Password')).toBe(MESSAGES.password);

    await typeInto(page, 'New Password', 'B');
    await expect.poll(() => metItems(page)).toEqual([UPPER, LOWER]);
    await typeInto(page, 'New Password', '3');
    await expect.poll(() => metItems(page)).toEqual([UPPER, LOWER, NUMBER]);
    await typeInto(page, 'New Password', '$');
    await expect.poll(() => metItems(page)).toEqual([UPPER, LOWER, NUMBER, SYMBOL]);
    expect(await fieldError(page, 'New Password')).toBe(MESSAGES.password);
    await typeInto(page, 'New Password', 'wxy');
    expect(await errorAfterInput(page, 'New Password', 'aB3$wxy')).toBe(MESSAGES.password);
    expect((await checklist(page)).complete).toBe(false);
    await typeInto(page, 'New Password', 'z');
    await expect
      .poll(() => checklist(page))
      .toEqual({ met: [UPPER, LOWER, NUMBER, SYMBOL, LENGTH], complete: true, severity: 'success' });
    expect(await fieldError(page, 'New Password')).toBe('');

    // The confirmation: silent while first typed, 'Passwords do not match' once left, fixed by the next key.
    await typeInto(page, 'Confirm New Password', 'aB3$wxy');
    expect(await errorAfterInput(page, 'Confirm New Password', 'aB3$wxy')).toBe('');
    await field(page, 'Confirm New Password').blur();
    await expect.poll(() => fieldError(page, 'Confirm New Password')).toBe(MESSAGES.passwordConfirmation);
    await typeInto(page, 'Confirm New Password', 'z');
    expect(await errorAfterInput(page, 'Confirm New Password', 'aB3$wxyz')).toBe('');
    // Changing the new password re-checks its confirmation.
    await typeInto(page, 'New Password', '!');
    await expect.poll(() => fieldError(page, 'Confirm New Password')).toBe(MESSAGES.passwordConfirmation);
    await field(page, 'New Password').press('Backspace');
    await expect.poll(() => fieldError(page, 'Confirm New Password')).toBe('');

    // A required password field left empty.
    await visit(page, 'Current Password');
    await expect.poll(() => fieldError(page, 'Current Password')).toBe(MESSAGES.required('your current password'));
    await context.close();
  });

  it('skips an optional field while it is empty and checks it once filled (the domain rule on an organization)', async () => {
    const { context, page } = await newPage(env.browser);
    await signInAsRoot(page, env.server.url);
    await page.goto(`${env.server.url}/organizations/add`);
    await page.getByRole('heading', { name: 'Add Organization' }).waitFor();

    await typeInto(page, 'E-mail domain', 'acme_widgets');
    expect(await errorAfterInput(page, 'E-mail domain', 'acme_widgets')).toBe('');
    await field(page, 'E-mail domain').blur();
    await expect.poll(() => fieldError(page, 'E-mail domain')).toBe(MESSAGES.domain);
    await field(page, 'E-mail domain').fill('acme-widgets.e');
    expect(await errorAfterInput(page, 'E-mail domain', 'acme-widgets.e')).toBe(MESSAGES.domain);
    await typeInto(page, 'E-mail domain', 'x');
    expect(await errorAfterInput(page, 'E-mail domain', 'acme-widgets.ex')).toBe('');
    // Emptied again: optional, so no error at all (not 'Please provide a domain name.'), nor once left.
    await field(page, 'E-mail domain').fill('');
    expect(await errorAfterInput(page, 'E-mail domain', '')).toBe('');
    await field(page, 'E-mail domain').blur();
    await visit(page, 'Name');
    await expect.poll(() => fieldError(page, 'Name')).toBe(MESSAGES.required('a name'));
    expect(await fieldError(page, 'E-mail domain')).toBe('');

    // A submit lists only the required field.
    await page.getByRole('button', { name: 'Save' }).click();
    await validationBanner(page).waitFor();
    expect(await bannerItems(page)).toEqual([`Name: ${MESSAGES.required('a name')}`]);

    // On the profile, the optional Title may stay empty while the Name may not.
    const own = await newPage(env.browser);
    await signInWithForm(own.page, env.server.url, fay);
    await own.page.goto(`${env.server.url}/profile`);
    await expect.poll(() => field(own.page, 'Name').inputValue()).toBe(fay.name);
    await visit(own.page, 'Title');
    expect(await fieldError(own.page, 'Title')).toBe('');
    await field(own.page, 'Name').fill('');
    await field(own.page, 'Name').blur();
    await expect.poll(() => fieldError(own.page, 'Name')).toBe(MESSAGES.required('a name'));
    expect(await fieldError(own.page, 'Title')).toBe('');
    await own.context.close();
    await context.close();
  });
});

describe("a failed submit (spec §3 form container, §5 'Validation failed.')", () => {
  it('shows the banner with every failing field, focuses the first, and clears once they are fixed', async () => {
    const { context, page } = await newPage(env.browser);
    const preapprovals: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/auth/preapprove') preapprovals.push(r.postData() ?? '');
    });
    await openSignup(page);
    // Submitted from the keyboard (Enter in the Email field); a click is the next test's concern.
    await field(page, 'Email').press('Enter');

    const banner = validationBanner(page);
    await banner.getByText(VALIDATION_FAILED_ALERT.title).waitFor();
    await banner.getByText(VALIDATION_FAILED_ALERT.text!).waitFor();
    expect(await severityOf(banner)).toBe('error');
    expect(await bannerItems(page)).toEqual([
      `Name: ${MESSAGES.required('a name')}`,
      `Email: ${MESSAGES.required('an email address')}`,
    ]);
    expect(await fieldError(page, 'Name')).toBe(MESSAGES.required('a name'));
    expect(await fieldError(page, 'Email')).toBe(MESSAGES.required('an email address'));
    await expect.poll(() => hasFocus(page, 'Name')).toBe(true);
    // Nothing was sent.
    expect(preapprovals).toEqual([]);
    expect(await page.getByTestId('signup-sent').count()).toBe(0);

    // Fixing a field takes it off the list; fixing the last one takes the banner away.
    await typeInto(page, 'Name', 'Grace');
    await expect.poll(() => bannerItems(page)).toEqual([`Email: ${MESSAGES.required('an email address')}`]);
    await typeInto(page, 'Email', 'grace@');
    await expect.poll(() => bannerItems(page)).toEqual([`Email: ${MESSAGES.email}`]);
    await typeInto(page, 'Email', 'nobody-accepts.example');
    await expect.poll(() => banner.count()).toBe(0);
    await context.close();
  });

  it('shows the banner on the sign-in form submitted empty, listing both fields, and sends nothing', async () => {
    const { context, page } = await newPage(env.browser);
    const logins: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/auth/login') logins.push(r.postData() ?? '');
    });
    await page.goto(`${env.server.url}/login`);
    await expect.poll(() => page.title()).toBe('Tessera - Sign in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const banner = validationBanner(page);
    await banner.getByText(VALIDATION_FAILED_ALERT.title).waitFor();
    await banner.getByText(VALIDATION_FAILED_ALERT.text!).waitFor();
    expect(await bannerItems(page)).toEqual([
      `Email: ${MESSAGES.required('an email address')}`,
      `Password: ${MESSAGES.required('a password')}`,
    ]);
    await expect.poll(() => hasFocus(page, 'Email')).toBe(true);
    expect(logins).toEqual([]);

    // Fixed, it signs in; 'Remember me' goes as the form's value, 'true' or empty (spec §3).
    await field(page, 'Email').fill(fay.email);
    await field(page, 'Password').fill(fay.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${env.server.url}/`);
    expect(logins.map((body) => (JSON.parse(body) as { remember?: unknown }).remember)).toEqual(['']);
    await context.close();
  });

  // The button is clicked while an empty required field has the focus: leaving the field shows its error.
  it.each([
    {
      screen: '/login',
      button: 'Sign in',
      open: async (page: Page) => {
        await page.goto(`${env.server.url}/login`);
        await expect.poll(() => page.title()).toBe('Tessera - Sign in');
      },
      focused: 'Email',
      what: 'an email address',
    },
    {
      screen: '/signup',
      button: 'Verify email',
      open: (page: Page) => openSignup(page),
      focused: 'Name',
      what: 'a name',
    },
    {
      screen: '/organizations/add',
      button: 'Save',
      open: async (page: Page) => {
        await signInAsRoot(page, env.server.url);
        await page.goto(`${env.server.url}/organizations/add`);
        await page.getByRole('heading', { name: 'Add Organization' }).waitFor();
      },
      focused: 'Name',
      what: 'a name',
    },
  ])(
    'submits on one click of $button on $screen even as the field being left turns invalid',
    async ({ button, open, focused, what }) => {
      const { context, page } = await newPage(env.browser);
      await open(page);
      await expect.poll(() => hasFocus(page, focused)).toBe(true);
      await page.getByRole('button', { name: button, exact: true }).click();
      // The one click is a submit: the banner shows, not only the left field's own error.
      await expect.poll(() => fieldError(page, focused)).toBe(MESSAGES.required(what));
      await expect
        .poll(() => validationBanner(page).count(), {
          message: `one click on '${button}' shows the 'Validation failed.' banner`,
        })
        .toBe(1);
      await validationBanner(page).getByText(VALIDATION_FAILED_ALERT.title).waitFor();
      await context.close();
    },
  );

  it('lists the password form’s failing fields, in order, and puts the server’s refusal on its field', async () => {
    const { context, page } = await newPage(env.browser);
    await openPasswordChange(page);
    await page.getByRole('button', { name: 'Save Password' }).click();
    await validationBanner(page).getByText(VALIDATION_FAILED_ALERT.title).waitFor();
    expect(await bannerItems(page)).toEqual([
      `Current Password: ${MESSAGES.required('your current password')}`,
      `New Password: ${MESSAGES.required('a new password')}`,
      `Confirm New Password: ${MESSAGES.required('the new password again')}`,
    ]);
    await expect.poll(() => hasFocus(page, 'Current Password')).toBe(true);

    await field(page, 'Current Password').fill('Wr0ng-passw0rd!');
    await field(page, 'New Password').fill('weak');
    await field(page, 'Confirm New Password').fill('weaker');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect
      .poll(() => bannerItems(page))
      .toEqual([`New Password: ${MESSAGES.password}`, `Confirm New Password: ${MESSAGES.passwordConfirmation}`]);
    await expect.poll(() => hasFocus(page, 'New Password')).toBe(true);

    // Valid to the form, refused by the server: its reason is put on the field and in the banner.
    await field(page, 'New Password').fill('Val1d-passw0rd!');
    await field(page, 'Confirm New Password').fill('Val1d-passw0rd!');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect.poll(() => fieldError(page, 'Current Password')).toBe(ACCOUNT_MESSAGES.wrongPassword);
    await expect.poll(() => bannerItems(page)).toEqual([`Current Password: ${ACCOUNT_MESSAGES.wrongPassword}`]);
    expect(new URL(page.url()).pathname).toBe('/password/change');
    await context.close();
  });
});

describe("the sign-up confirmation (spec §2, §3 'sent', §4)", () => {
  it("shows 'Verify Your Email' only when the reply says the mail was sent", async () => {
    for (const sent of [false, true]) {
      const { context, page } = await newPage(env.browser);
      const address = `sent-${sent}@sent-forms.example`;
      // The server always sends; a reply of `sent: false` is made here to see that the page reads it.
      await page.route('**/auth/preapprove', (route) =>
        route.fulfill({
          json: { emailDomain: 'sent-forms.example', organizationName: 'Sent Forms', acceptUsers: true, userId: 0 },
        }),
      );
      await page.route('**/auth/signup', (route) => route.fulfill({ json: { sent } }));
      await openSignup(page);
      await field(page, 'Name').fill('Sent Tester');
      await field(page, 'Email').fill(address);
      await field(page, 'Email').blur();
      const verify = page.getByRole('button', { name: 'Verify email' });
      await expect.poll(() => verify.isEnabled()).toBe(true);
      const answered = page.waitForResponse('**/auth/signup');
      await verify.click();
      await answered;
      if (sent) {
        await page.getByTestId('signup-sent').getByText(ACCOUNT_MESSAGES.signupSent.title).waitFor();
      } else {
        await page.getByTestId('alert-stack').getByRole('alert').first().waitFor();
        expect(await page.getByTestId('signup-sent').count()).toBe(0);
        expect(await page.getByText(ACCOUNT_MESSAGES.signupSent.title, { exact: true }).count()).toBe(0);
        expect(await field(page, 'Email').inputValue()).toBe(address);
      }
      await context.close();
    }
  });
});

describe('length limits (spec §5 max length)', () => {
  it('stops each field at its limit, so no value too long is ever typed', async () => {
    const { context, page } = await newPage(env.browser);
    await openSignup(page);
    await field(page, 'Name').fill('n'.repeat(MAX_LENGTH.name + 25));
    await expect.poll(() => field(page, 'Name').inputValue()).toBe('n'.repeat(MAX_LENGTH.name));
    await field(page, 'Name').blur();
    await expect.poll(() => fieldError(page, 'Name')).toBe('');
    const long = `${'e'.repeat(MAX_LENGTH.email)}@acme.io`;
    await field(page, 'Email').fill(long);
    await expect.poll(() => field(page, 'Email').inputValue()).toBe(long.slice(0, MAX_LENGTH.email));
    await context.close();

    const root = await newPage(env.browser);
    await signInAsRoot(root.page, env.server.url);
    await root.page.goto(`${env.server.url}/organizations/add`);
    await root.page.getByRole('heading', { name: 'Add Organization' }).waitFor();
    const domain = `${'d'.repeat(MAX_LENGTH.domain)}.example`;
    await field(root.page, 'E-mail domain').fill(domain);
    await expect.poll(() => field(root.page, 'E-mail domain').inputValue()).toBe(domain.slice(0, MAX_LENGTH.domain));
    await field(root.page, 'Name').fill('N'.repeat(MAX_LENGTH.name + 1));
    await expect.poll(() => field(root.page, 'Name').inputValue()).toHaveLength(MAX_LENGTH.name);
    await root.context.close();

    const own = await newPage(env.browser);
    await openPasswordChange(own.page);
    const password = `Aa1!${'p'.repeat(MAX_LENGTH.password)}`;
    await field(own.page, 'New Password').fill(password);
    await expect.poll(() => field(own.page, 'New Password').inputValue()).toBe(password.slice(0, MAX_LENGTH.password));
    await field(own.page, 'New Password').blur();
    await expect.poll(() => fieldError(own.page, 'New Password')).toBe('');
    await own.page.goto(`${env.server.url}/profile`);
    await expect.poll(() => field(own.page, 'Name').inputValue()).toBe(fay.name);
    await field(own.page, 'Title').fill('t'.repeat(MAX_LENGTH.title + 3));
    await expect.poll(() => field(own.page, 'Title').inputValue()).toHaveLength(MAX_LENGTH.title);
    await field(own.page, 'Title').blur();
    await expect.poll(() => fieldError(own.page, 'Title')).toBe('');
    await own.context.close();
  });
});

describe('the sign-up address (spec §4 sign-up states, §5, §8)', () => {
  it('never sends an address of bad shape to the pre-approval call', async () => {
    const { context, page } = await newPage(env.browser);
    const preapprovals: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname !== '/auth/preapprove') return;
      preapprovals.push((r.postDataJSON() as { email: string }).email);
    });
    // The page's clock is driven from here, so the 250 ms debounce can be run out instead of waited for.
    await page.clock.install();
    await openSignup(page);
    const status = page.getByTestId('signup-status');

    // Key by key, every prefix of 'grace@acme-widgets' is of bad shape; then the field is left, and the
    // debounce runs out more than once over.
    await typeInto(page, 'Name', 'Grace');
    await typeInto(page, 'Email', 'grace@acme-widgets');
    await page.clock.runFor(DEBOUNCE_MS * 4);
    await field(page, 'Email').blur();
    await expect.poll(() => fieldError(page, 'Email')).toBe(MESSAGES.email);
    await page.clock.runFor(DEBOUNCE_MS * 4);
    for (const bad of ['grace@acme-widgets.', 'grace@acme-widgets.e', 'grace@@acme-widgets.example', 'grace @x.io']) {
      await field(page, 'Email').fill(bad);
      await field(page, 'Email').blur();
      await page.clock.runFor(DEBOUNCE_MS * 4);
    }
    expect(await status.textContent()).toBe(ACCOUNT_MESSAGES.workEmail);

    // The first address of good shape is the first one asked about; it was asked about once.
    const good = 'grace@nobody-accepts.example';
    await field(page, 'Email').fill(good);
    await field(page, 'Email').blur();
    await page.clock.runFor(DEBOUNCE_MS * 4);
    await status.getByText(ACCOUNT_MESSAGES.noAcceptingOrganization('nobody-accepts.example')).waitFor();
    expect(preapprovals).toEqual([good]);
    await context.close();
  });

  it('shows the §8 text of each sign-up state, and refuses Verify email for an existing user or a closed domain', async () => {
    const root = await newPage(env.browser);
    await signInAsRoot(root.page, env.server.url);
    for (const organization of [
      { name: 'Open Forms', emailDomain: 'open-forms.example', acceptUsers: true },
      { name: 'Closed Forms', emailDomain: 'closed-forms.example', acceptUsers: false },
    ]) {
      expect(await callApi(root.page, 'POST', '/v2/organizations', organization)).toMatchObject({ status: 200 });
    }
    await root.context.close();

    const { context, page } = await newPage(env.browser);
    await openSignup(page);
    const status = page.getByTestId('signup-status');
    const verify = page.getByRole('button', { name: 'Verify email' });
    await field(page, 'Name').fill('Sam Signup');

    /** Enters an address, leaves the field, and waits for the status to say `text`. */
    async function enter(email: string, text: string) {
      await field(page, 'Email').fill(email);
      await field(page, 'Email').blur();
      await expect.poll(() => status.textContent()).toBe(text);
    }

    // No domain information yet: the info message, and Verify email is offered.
    expect(await status.textContent()).toBe(ACCOUNT_MESSAGES.workEmail);
    expect(await severityOf(status)).toBe('info');
    expect(await verify.isEnabled()).toBe(true);

    // An address that already has an account: a warning, and no Verify email.
    await enter(fay.email, ACCOUNT_MESSAGES.existingUser(fay.email));
    expect(await severityOf(status)).toBe('warning');
    expect(await verify.isDisabled()).toBe(true);

    // A domain whose organization accepts users: success, naming it.
    await enter('sam@open-forms.example', ACCOUNT_MESSAGES.organizationAccepts('Open Forms'));
    expect(await severityOf(status)).toBe('success');
    expect(await verify.isEnabled()).toBe(true);

    // A domain whose organization takes nobody, and one nobody has: an error naming the domain; no Verify email.
    await enter('sam@closed-forms.example', ACCOUNT_MESSAGES.noAcceptingOrganization('closed-forms.example'));
    expect(await severityOf(status)).toBe('error');
    expect(await verify.isDisabled()).toBe(true);
    await enter('sam@no-such-org.example', ACCOUNT_MESSAGES.noAcceptingOrganization('no-such-org.example'));
    expect(await severityOf(status)).toBe('error');
    expect(await verify.isDisabled()).toBe(true);

    // Back to an address of bad shape: no domain information again.
    await enter('sam@open-forms', ACCOUNT_MESSAGES.workEmail);
    expect(await severityOf(status)).toBe('info');
    expect(await verify.isEnabled()).toBe(true);
    await context.close();
  });
});
