/** Spec §7 account calls: pre-approval, sign-up, e-mailed links, forgotten and new passwords. */
import { ACCOUNT_MESSAGES } from '@tessera/common/account-messages';
import { MESSAGES } from '@tessera/common/validation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRank } from '../../http/auth';
import { BadRequest, Forbidden } from '../../http/errors';
import type { PasswordService } from './passwords';
import { emailBody, linkBody, passwordAction, passwordBody, preapproveReply, signupBody } from './schemas';
import type { SignupService } from './signup';

export const CURRENT_PASSWORD_REQUIRED = MESSAGES.required('your current password');
export const OPEN_THE_LINK = ACCOUNT_MESSAGES.linkMissing;

export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { signup: SignupService; passwords: PasswordService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/auth/preapprove', { schema: { body: emailBody, response: { 200: preapproveReply } } }, (request) =>
    deps.signup.preapprove(request.body.email, request.ip),
  );

  r.post('/auth/signup', { schema: { body: signupBody } }, (request) => deps.signup.signup(request.body, request.ip));

  r.post('/auth/forgot', { schema: { body: emailBody } }, (request) =>
    deps.passwords.forgot(request.body.email, request.ip),
  );

  /** Opens a verify, set or reset link: a session that may only take that link's password action. */
  r.post('/auth/link', { schema: { body: linkBody } }, async (request, reply) => ({
    self: await deps.passwords.openLink(request.body.token, request, reply),
  }));

  r.post(
    '/auth/password/:action',
    { schema: { params: passwordAction, body: passwordBody }, preHandler: requireRank('resetter') },
    async (request, reply) => {
      const { action } = request.params;
      const { newPassword, password } = request.body;
      const scope = request.session?.scope ?? 'full';
      if (action === 'change') {
        // A link's session never gets here: the standing gate holds it to its own action.
        if (!password) {
          throw new BadRequest(CURRENT_PASSWORD_REQUIRED, [
            { path: 'body.password', message: CURRENT_PASSWORD_REQUIRED },
          ]);
        }
        return deps.passwords.change(password, newPassword, request, reply);
      }
      if (scope !== action) throw new Forbidden(OPEN_THE_LINK);
      return deps.passwords.fromLink(action, newPassword, request, reply);
    },
  );
}
