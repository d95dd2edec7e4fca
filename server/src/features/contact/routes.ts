/**
 * Contact Us (issue 18): anyone may write (POST /v2/contact), throttled per client IP and per address; the message
 * is stored, then mailed to SUPPORT_EMAIL when it is set. Staff (super+) list messages and mark them handled.
 * Logs name a message by its id only: never its writer, address or text.
 */
import { CONTACT_MESSAGES } from '@tessera/common/contact';
import { hasRank } from '@tessera/common/roles';
import { emailKey } from '@tessera/common/validation';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { Forbidden, NotFound, Unauthorized } from '../../http/errors';
import type { Mailer } from '../../mail';
import { audit } from '../audit/record';
import type { Limiter } from '../throttle/limiter';
import { THROTTLE_RULES, throttle } from '../throttle/rules';
import { contactMail, staffLink } from './mail';
import { listMessages, setHandled, storeMessage } from './repo';
import { contactBody, contactListQuery, contactParams, handledBody } from './schemas';

/** Each message is stored and may be mailed: the limits of the other mail-sending requests, counted apart. */
export const CONTACT_THROTTLE = {
  perIp: THROTTLE_RULES.mailPerIp,
  perAddress: THROTTLE_RULES.mailPerAddress,
} as const;

export interface ContactDeps {
  database: Database;
  mailer: Mailer;
  limiter: Limiter;
  publicUrl: URL;
  supportEmail: string | null;
}

/** super+ only: 401 when signed out, 403 below super. */
async function staffOnly(request: FastifyRequest): Promise<void> {
  if (hasRank(request.user.role, 'super')) return;
  if (request.user.id === 0) throw new Unauthorized();
  throw new Forbidden(CONTACT_MESSAGES.forbidden);
}

export function registerContactRoutes(app: FastifyInstance, deps: ContactDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, mailer, limiter } = deps;

  r.post('/v2/contact', { schema: { body: contactBody } }, async (request, reply) => {
    const { body, user } = request;
    await throttle(limiter, [
      [`contact:ip:${request.ip}`, CONTACT_THROTTLE.perIp],
      [`contact:address:${emailKey(body.email)}`, CONTACT_THROTTLE.perAddress],
    ]);
    const stored = await storeMessage(database.db, body, user.id || null);
    if (deps.supportEmail) mailer.send(contactMail(deps.supportEmail, stored, staffLink(deps.publicUrl)));
    else request.log.info({ contactMessageId: stored.id }, 'contact message stored; no SUPPORT_EMAIL, so not mailed');
    reply.code(201);
    return { contactSent: { id: stored.id, createdAt: stored.createdAt } };
  });

  r.get(
    '/v2/contact-messages',
    { preHandler: staffOnly, schema: { querystring: contactListQuery } },
    async (request) => ({
      contactMessages: await listMessages(database.db, request.query.handled),
    }),
  );

  r.put(
    '/v2/contact-messages/:id',
    { preHandler: staffOnly, schema: { params: contactParams, body: handledBody } },
    async (request) => {
      const { id } = request.params;
      const { user } = request;
      const contactMessage = await database.transaction(async (tx) => {
        const updated = await setHandled(tx, id, request.body.handled, user.id);
        if (!updated) throw new NotFound(CONTACT_MESSAGES.notFound);
        await audit(tx, {
          action: 'contact.handle',
          actorId: user.id,
          impersonatorId: user.impersonator,
          targetType: 'contact_message',
          targetId: id,
          ip: request.ip,
          detail: { handled: request.body.handled },
        });
        return updated;
      });
      return { contactMessage };
    },
  );
}
