/**
 * Opt-out requests (issue 22 item 1). Anyone asks from the contact page (POST /v2/opt-out), throttled per client IP
 * and per address; the reply and the work are the same whether or not the address is in the graph (the graph is
 * read only at confirmation). The link mailed (single use, 72 hours) confirms it (POST /v2/opt-out/confirm): only
 * what was proven is suppressed (opt-out-scope.ts): the e-mail (as its SHA-256), the phone where an identity holds it
 * with that e-mail, and the one person holding that e-mail; the address and phone then leave the request row, and the
 * reply and the mail to the requester say what was and was not left out.
 */
import { normalizeEmail, normalizePhone } from '@tessera/common/lookup-inputs';
import { optOutOutcomeText, STEWARDSHIP_LIMITS, STEWARDSHIP_MESSAGES } from '@tessera/common/stewardship';
import { emailKey } from '@tessera/common/validation';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { optOutRequests } from '../../db/schema';
import { BadRequest } from '../../http/errors';
import type { Mailer } from '../../mail';
import { audit } from '../audit/record';
import { isOneMailbox } from '../contact/mailbox';
import { hashToken, newSessionToken } from '../sessions/tokens';
import type { Limiter } from '../throttle/limiter';
import { THROTTLE_RULES, throttle } from '../throttle/rules';
import { confirmOptOutMail, optOutDoneMail, optOutLink } from './opt-out-mail';
import { provenKeys } from './opt-out-scope';
import { addSuppression } from './repo';
import { optOutBody, optOutConfirmBody } from './schemas';

export const OPT_OUT_THROTTLE = {
  perIp: THROTTLE_RULES.mailPerIp,
  perAddress: THROTTLE_RULES.mailPerAddress,
} as const;

export interface OptOutDeps {
  database: Database;
  mailer: Mailer;
  limiter: Limiter;
  publicUrl: URL;
}

export function registerOptOutRoutes(app: FastifyInstance, deps: OptOutDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, mailer, limiter } = deps;

  r.post('/v2/opt-out', { schema: { body: optOutBody } }, async (request, reply) => {
    const { email, phone } = request.body;
    await throttle(limiter, [
      [`opt-out:ip:${request.ip}`, OPT_OUT_THROTTLE.perIp],
      [`opt-out:address:${emailKey(email)}`, OPT_OUT_THROTTLE.perAddress],
    ]);
    const token = newSessionToken();
    const [row] = await database.db
      .insert(optOutRequests)
      .values({
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + STEWARDSHIP_LIMITS.optOutHours * 3600_000),
        email,
        phone: phone === '' ? null : normalizePhone(phone),
      })
      .returning({ id: optOutRequests.id });
    mailer.send(confirmOptOutMail(email, optOutLink(deps.publicUrl, token)));
    request.log.info({ optOutRequestId: row!.id }, 'opt-out requested');
    reply.code(202);
    return { optOutRequested: { sent: true } };
  });

  r.post('/v2/opt-out/confirm', { schema: { body: optOutConfirmBody } }, async (request) => {
    const done = await database.transaction(async (tx) => {
      const [req] = await tx
        .update(optOutRequests)
        .set({ confirmedAt: sql`now()` })
        .where(
          and(
            eq(optOutRequests.tokenHash, hashToken(request.body.token)),
            isNull(optOutRequests.confirmedAt),
            gt(optOutRequests.expiresAt, sql`now()`),
          ),
        )
        .returning();
      if (!req) throw new BadRequest(STEWARDSHIP_MESSAGES.optOutLink);
      // The request route takes only valid addresses; a row without one cannot be confirmed to anything.
      const email = req.email ? normalizeEmail(req.email) : null;
      if (!email) throw new BadRequest(STEWARDSHIP_MESSAGES.optOutLink);
      const { keys, outcome } = await provenKeys(tx, email, req.phone);
      let suppressed = 0;
      for (const key of keys) {
        if (await addSuppression(tx, key, { source: 'request', createdBy: null, requestId: req.id })) suppressed++;
      }
      await tx
        .update(optOutRequests)
        .set({ email: null, phone: null, suppressed })
        .where(eq(optOutRequests.id, req.id));
      await audit(tx, {
        action: 'optout.confirm',
        targetType: 'opt_out_request',
        targetId: req.id,
        ip: request.ip,
        detail: { suppressed, ...outcome },
      });
      return { to: req.email, confirmedAt: req.confirmedAt, outcome };
    });
    const said = optOutOutcomeText(done.outcome);
    // Rows stored before one address had to be one mailbox may hold a list: its note goes to nobody.
    if (done.to && isOneMailbox(done.to)) mailer.send(optOutDoneMail(done.to, said));
    return {
      optOutConfirmed: {
        confirmedAt: done.confirmedAt?.toISOString() ?? new Date().toISOString(),
        suppressed: done.outcome,
        summary: said.join(' '),
      },
    };
  });
}
