/**
 * Secrets and ids of webhooks (decision 0066): a secret is `whsec_` and the base64 of 32 random bytes, kept sealed
 * like API key secrets and two-factor secrets (decision 0015); a message id is `msg_` and 24 random characters.
 * During a rotation's overlap a delivery is signed with both secrets, the new one first.
 */
import { randomBytes } from 'node:crypto';
import { signWebhook } from '@tessera/common/webhook-signature';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_MESSAGE_ID_PREFIX,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
} from '@tessera/common/webhooks';
import type { Sealer } from '../keys/secrets';

export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
export const newMessageId = () => WEBHOOK_MESSAGE_ID_PREFIX + randomBytes(18).toString('base64url');

export interface SealedSecrets {
  secretSealed: string;
  previousSecretSealed: string | null;
  previousValidUntil: Date | null;
}

/** Thrown when a sealed secret cannot be opened (KEY_ENCRYPTION_KEY changed since it was sealed). */
export class UnreadableSecret extends Error {
  constructor() {
    super("The endpoint's signing secret cannot be read (the key-encryption key changed): rotate the secret.");
  }
}

/** The secrets a delivery made at `now` is signed with: the current one, and the previous during its overlap. */
export async function signingSecrets(sealer: Sealer, sealed: SealedSecrets, now: Date): Promise<string[]> {
  const current = await sealer.open(sealed.secretSealed);
  if (current === null) throw new UnreadableSecret();
  const overlapping =
    sealed.previousSecretSealed !== null &&
    sealed.previousValidUntil !== null &&
    sealed.previousValidUntil.getTime() > now.getTime();
  const previous = overlapping ? await sealer.open(sealed.previousSecretSealed!) : null;
  return previous === null ? [current] : [current, previous];
}

/** The Standard Webhooks headers of one attempt. */
export function deliveryHeaders(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    [WEBHOOK_HEADERS.id]: messageId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signWebhook(secrets, messageId, timestamp, body),
  };
}
