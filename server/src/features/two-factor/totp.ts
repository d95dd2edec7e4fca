/**
 * The TOTP arithmetic (RFC 6238, SHA-1, 6 digits, 30 s) with otplib, the QR picture with qrcode, and recovery codes
 * from node:crypto. Decision 0063 says why these libraries.
 */
import { createHash, randomInt } from 'node:crypto';
import {
  isRecoveryCode,
  isTotpCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_ALPHABET,
  TWO_FACTOR_RULES,
} from '@tessera/common/two-factor';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

const { digits, periodSeconds, driftSteps } = TWO_FACTOR_RULES;

/** A new 160-bit secret (RFC 4226's recommended length), Base32 as authenticator apps take it. */
export function newSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI the QR code carries: issuer and the account's e-mail as its label. */
export function otpauthUri(secret: string, email: string): string {
  return generateURI({ issuer: TWO_FACTOR_RULES.issuer, label: email, secret, digits, period: periodSeconds });
}

/** The QR code as an SVG data: URL (drawn dark on white whatever the theme, as scanners expect). */
export async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The RFC 6238 time step a code is right for, within one step either side of now; null when it is not right.
 * The caller refuses a step it has seen (replay): see acceptStep in repo.ts.
 */
export async function codeStep(secret: string, code: string, now = Date.now()): Promise<number | null> {
  const token = code.replace(/\s+/g, '');
  if (!isTotpCode(token)) return null;
  const result = await verify({
    secret,
    token,
    digits,
    period: periodSeconds,
    epoch: Math.floor(now / 1000),
    epochTolerance: driftSteps * periodSeconds,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Which kind of code was typed: the app's six digits, a recovery code, or neither. */
export function codeKind(code: string): 'totp' | 'recovery' | null {
  if (isTotpCode(code)) return 'totp';
  if (isRecoveryCode(code)) return 'recovery';
  return null;
}

/** A fresh set of recovery codes as shown to the person (`xxxxx-xxxxx`). */
export function newRecoveryCodes(): string[] {
  const { recoveryCodeCount, recoveryCodeGroups, recoveryCodeGroupLength } = TWO_FACTOR_RULES;
  const group = () =>
    Array.from(
      { length: recoveryCodeGroupLength },
      () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)],
    ).join('');
  return Array.from({ length: recoveryCodeCount }, () => Array.from({ length: recoveryCodeGroups }, group).join('-'));
}

/**
 * What is stored of a recovery code: its SHA-256. 50 random bits each, single use and behind the sign-in lockout:
 * a slow hash would add nothing an attacker with the table could not already do faster by guessing the codes.
 */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}
