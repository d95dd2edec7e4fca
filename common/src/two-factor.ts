/**
 * TOTP two-factor sign-in (issue 32 item 9, decision 0063): the paths, rules and messages the server and the console
 * share.
 */

export const TWO_FACTOR_PATHS = {
  /** GET: whether it is on, how many recovery codes are left, whether the role requires it. */
  status: '/auth/two-factor',
  /** POST: a new secret to enrol (its text, otpauth URI and QR picture), replacing an unconfirmed one. */
  enrol: '/auth/two-factor/enrol',
  /** POST {code}: the first code confirms enrolment; the reply carries the recovery codes, shown once. */
  confirm: '/auth/two-factor/confirm',
  /** POST {code} or {password}: turns it off. */
  disable: '/auth/two-factor/disable',
  /** POST {code} or {password}: a new set of recovery codes, the old ones void. */
  recoveryCodes: '/auth/two-factor/recovery-codes',
  /** POST {code}: the second step of a sign-in (a code from the app, or a recovery code). */
  signIn: '/auth/login/two-factor',
  /** GET: whether it is on (root only); DELETE: an operator (root) turns it off for a user who lost their device. */
  reset: (userId: number) => `/v2/users/${userId}/two-factor`,
} as const;

/** Where a staff user who must turn it on is sent (REQUIRE_2FA_FOR_STAFF): the profile, its set-up dialog open. */
export const ENROL_LOCATION = '/profile?twoFactor=enrol';

/** Where /login shows its code step (after an outside provider's sign-in, say). */
export const CODE_STEP_QUERY = 'code';

export const TWO_FACTOR_RULES = {
  /** RFC 6238 defaults, the ones every authenticator app uses. */
  digits: 6,
  periodSeconds: 30,
  /** Codes of one step either side of now are accepted (clock drift). */
  driftSteps: 1,
  recoveryCodeCount: 10,
  /** A recovery code: two groups of five from an alphabet without look-alikes, e.g. `7kq2m-x9fhp`. */
  recoveryCodeGroups: 2,
  recoveryCodeGroupLength: 5,
  /** How long a sign-in waits for its code after the password. */
  pendingSeconds: 5 * 60,
  /** Wrong codes one pending sign-in takes before the password must be entered again. */
  pendingFailures: 5,
  /** Issuer shown in the authenticator app. */
  issuer: 'Tessera',
} as const;

/** Letters and digits that are not easily mistaken for one another (no 0/o, 1/l/i). */
export const RECOVERY_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

/** A six-digit code from the app, spaces allowed ("123 456"). */
export function isTotpCode(value: string): boolean {
  return /^\d{6}$/.test(value.replace(/\s+/g, ''));
}

/** A recovery code as typed: case and a missing or extra dash or space do not matter. */
export function normalizeRecoveryCode(value: string): string {
  return value.toLowerCase().replace(/[\s-]+/g, '');
}

export function isRecoveryCode(value: string): boolean {
  const n = normalizeRecoveryCode(value);
  const length = TWO_FACTOR_RULES.recoveryCodeGroups * TWO_FACTOR_RULES.recoveryCodeGroupLength;
  return n.length === length && [...n].every((c) => RECOVERY_CODE_ALPHABET.includes(c));
}

export const TWO_FACTOR_MESSAGES = {
  codeMissing: 'Please enter the 6-digit code from your authenticator app, or a recovery code.',
  codeShape: 'Enter the 6-digit code from your authenticator app, or a recovery code such as 7kq2m-x9fhp.',
  wrongCode: 'That code is not right. Check the time on your device and try the newest code.',
  /** A code that already signed in or confirmed something: each code works once. */
  reusedCode: 'That code was already used. Wait for the next code in your authenticator app.',
  usedRecoveryCode: 'That recovery code was already used. Each recovery code works once.',
  /** The second step came without a live pending sign-in (none, expired, used, or too many wrong codes). */
  expired: 'Your sign-in has expired. Please sign in again.',
  alreadyOn: 'Two-factor sign-in is already on for your account.',
  notOn: 'Two-factor sign-in is not on for your account.',
  noEnrolment: 'Start the set-up again: no two-factor set-up is waiting for its first code.',
  proofMissing: 'Please enter a code from your authenticator app, a recovery code, or your password.',
  wrongPassword: 'The password is incorrect.',
  /** REQUIRE_2FA_FOR_STAFF: a System Administrator or Maintainer must turn it on before anything else. */
  required: 'Your role requires two-factor sign-in. Please turn it on to continue.',
  requiredCannotDisable: 'Your role requires two-factor sign-in, so it cannot be turned off.',
  notWhileImpersonating: 'Two-factor sign-in can only be changed by the account owner, not while impersonating.',
  resetNotOn: 'This user does not have two-factor sign-in on.',
  noSuchUser: 'There is no such user.',
  resetOwn: 'Turn off your own two-factor sign-in from your profile, with a code or your password.',
} as const;

/** An operator's view of someone's two-factor sign-in (GET /v2/users/{id}/two-factor, root only). */
export interface OperatorTwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
}

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  /** The role requires it here (REQUIRE_2FA_FOR_STAFF and a System Administrator or Maintainer). */
  required: boolean;
}

export interface TwoFactorEnrolment {
  /** Base32 secret for typing into the app by hand. */
  secret: string;
  /** otpauth:// URI the QR code holds. */
  uri: string;
  /** The QR code as an SVG data: URL. */
  qrCode: string;
}
