/** Spec §7 account calls: pre-approval, sign-up, e-mailed links, forgotten and new passwords. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireRank } from '../../http/auth';
import { Forbidden } from '../../http/errors';
import type { PasswordService } from './passwords';
import { emailBody, linkBody, passwordAction, passwordBody, preapproveReply, signupBody } from './schemas';
import type { SignupService } from './signup';

export const CURRENT_PASSWORD_REQUIRED = 'Please provide your current password.';

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
        if (scope !== 'full') throw new Forbidden();
        if (!password) throw new Forbidden(CURRENT_PASSWORD_REQUIRED);
        return deps.passwords.change(password, newPassword, request);
      }
      // set and reset come from an e-mailed link's session (the standing gate holds each to its own action).
      if (scope !== action) throw new Forbidden('Open the link from your e-mail to set a new password.');
      return action === 'set'
        ? deps.passwords.setFromLink(newPassword, request, reply)
        : deps.passwords.resetFromLink(newPassword, request, reply);
    },
  );
}
