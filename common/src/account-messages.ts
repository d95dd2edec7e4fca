/** Spec §8 account messages, shared by the server's replies and the console's alerts. */
export const ACCOUNT_MESSAGES = {
  noAcceptingOrganization: (domain: string) =>
    `Sorry, there is no organization accepting new users with emails ending in ${domain}. Please contact your administrator to create an account for you.`,
  existingUser: (email: string) => `There is already a user account for ${email}.`,
  passwordUpdated: { title: 'Password Updated', text: 'Your password has been updated successfully.' },
  resetRequested: (email: string) => ({
    title: 'Password Reset Requested',
    text: `If there is an active API account for "${email}", then a password reset link will be sent.`,
    hint: 'If it does not arrive in a few minutes, please check your junk or spam folder.',
  }),
  signupSent: {
    title: 'Verify Your Email',
    text: 'We have sent you an email with a link to verify your address and set your password.',
    hint: 'If it does not arrive in a few minutes, please check your junk or spam folder.',
  },
  /** The sign-up form's info message before the address is known (spec §2, §4 "no domain info"). */
  workEmail: 'Please sign up with a valid work email address. Your account joins your organization once you verify it.',
  /** The sign-up form's success message for a domain accepting users (spec §4). */
  organizationAccepts: (organization: string) =>
    `Your organization, ${organization}, accepts new users. You will join it once you verify your email.`,
  linkExpired: 'This link has expired or has already been used. Please ask for a new one.',
  /** The set or reset page opened without a link's token and without a link's session. */
  linkMissing: 'Open the link from your e-mail to set a new password.',
  wrongPassword: 'The current password is incorrect.',
} as const;
