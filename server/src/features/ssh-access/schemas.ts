/** Request shapes of /v2/ssh/*, with the rules of common/ssh.ts. */
import { text } from '@tessera/common/schemas/fields';
import { isGroupName, isPrincipal, SSH_LIMITS, SSH_MESSAGES } from '@tessera/common/ssh';
import { MAX_LENGTH, MESSAGES } from '@tessera/common/validation';
import { z } from 'zod';

const id = z.coerce.number().int().positive().max(2_147_483_647);

export const idParams = z.object({ id });

export const keyBody = z
  .object({
    publicKey: text()
      .trim()
      .min(1, { message: SSH_MESSAGES.publicKey, abort: true })
      .max(SSH_LIMITS.publicKey, SSH_MESSAGES.publicKeyTooLong),
    /** Empty: the key's comment, else its type and fingerprint. */
    name: text().trim().max(MAX_LENGTH.name, MESSAGES.tooLong('a name', MAX_LENGTH.name)).default(''),
  })
  .strict();

export const groupBody = z.object({ name: text().trim().refine(isGroupName, SSH_MESSAGES.groupName) }).strict();

export const grantBody = z
  .object({
    keyId: id,
    groupId: id,
    principal: text().trim().refine(isPrincipal, SSH_MESSAGES.principal),
    expiresAt: z.iso
      .datetime({ offset: true, error: MESSAGES.date })
      .transform((value) => new Date(value))
      .refine((date) => date.getTime() > Date.now(), SSH_MESSAGES.expiresPast)
      .refine(
        (date) => date.getTime() <= Date.now() + SSH_LIMITS.grantMaxDays * 86_400_000,
        SSH_MESSAGES.expiresTooFar,
      ),
  })
  .strict();

export const certificateBody = z
  .object({
    keyId: id,
    grantId: id,
    hours: z
      .number({ error: SSH_MESSAGES.hours })
      .int(SSH_MESSAGES.hours)
      .min(1, SSH_MESSAGES.hours)
      .max(SSH_LIMITS.certificateMaxHours, SSH_MESSAGES.hours),
  })
  .strict();

export const authorizedKeysQuery = z.object({
  group: text().refine(isGroupName, SSH_MESSAGES.groupName),
  user: z.string({ error: SSH_MESSAGES.userMissing }).refine(isPrincipal, SSH_MESSAGES.principal),
});
