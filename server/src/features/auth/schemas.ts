import { userSchema } from '@tessera/common/schemas/entities';
import { text } from '@tessera/common/schemas/fields';
import { canonicalEmail, isEmail, MESSAGES } from '@tessera/common/validation';
import { z } from 'zod';

export const loginBody = z.object({
  /**
   * The address in its canonical form, and only one the other forms (sign-up, new user) would take: any other
   * spelling of an account's address would count against another throttle key (decision 0020).
   */
  email: text()
    .overwrite(canonicalEmail)
    .min(1, { message: 'Please provide an email address.', abort: true })
    .refine(isEmail, MESSAGES.email),
  password: text().min(1, 'Please provide a password.').max(100),
  /** 'true' or empty, as the form sends it (spec §3). */
  remember: z.union([z.literal('true'), z.literal(''), z.boolean()]).optional(),
  /** The page the visitor wanted before signing in; only a path on this site is honoured. */
  returnTo: text().max(2048).optional(),
});

export const loginReply = z.object({
  location: z.string(),
  /** The password was right; the code from the authenticator app is asked next (POST /auth/login/two-factor). */
  twoFactor: z.literal(true).optional(),
});
export const selfReply = z.object({ self: userSchema });
