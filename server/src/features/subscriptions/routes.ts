/**
 * /v2/subscriptions (issue 33 item 2, decision 0067): a key or a console user of an organization subscribes to an
 * identity (by id, or by an input resolved now), lists, reads and deletes the organization's subscriptions. Made
 * under the contract in force's subscription limit (409 naming it). A suppressed person is answered as a missing one.
 * Making one is admitted and rate-limited as a lookup is (it tells whether someone holds an input): 402 when the
 * organization may not call, 429 past the key's or the contract's rate limit.
 */
import { SUBSCRIPTION_INPUTS, SUBSCRIPTION_MESSAGES, SUBSCRIPTION_PATHS } from '@tessera/common/subscriptions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BadRequest, Conflict, Forbidden, NotFound, Unprocessable } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import { authenticate, type LookupCaller } from '../identities/caller';
import { requestHasher } from '../identities/idempotency';
import { identify, type LookupDeps } from '../identities/service';
import { TemplateError } from '../templates/evaluate';
import { DEFAULT_TEMPLATE_ID, deletedTemplate, TEMPLATE_MESSAGES } from '../templates/store';
import {
  contractTerms,
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  liveSubscriptions,
  toSubscription,
} from './repo';
import { identityExists, normalizedInput, resolveInput } from './resolve';
import { type SubscriptionBody, subscriptionBody, subscriptionListQuery, subscriptionParams } from './schemas';

/** The lookups' parts: a subscription is made under their admission and rate limits, its template checked as theirs. */
export type SubscriptionRouteDeps = LookupDeps;

type Caller = LookupCaller & { organizationId: number };

export function registerSubscriptionRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;

  // A call with no session is authenticated by its key before the body or the parameters are checked, so one without
  // credentials answers 401 with WWW-Authenticate, not 400 (http/origin.test.ts holds every key path to that). A
  // session's caller is read in the handler, after the agreement gate (451) has had its say.
  const callers = new WeakMap<FastifyRequest, LookupCaller>();
  const preValidation = async (request: FastifyRequest) => {
    if (request.user.role === 'anonymous') callers.set(request, await authenticate(request, deps.authenticators));
  };

  /** The caller, who must act for an organization, with a live key or a console session. */
  async function callerFor(request: FastifyRequest): Promise<Caller> {
    const caller = callers.get(request) ?? (await authenticate(request, deps.authenticators));
    if (caller.organizationId === null) throw new Forbidden(SUBSCRIPTION_MESSAGES.organizationRequired);
    if (caller.mode === 'test') throw new Forbidden(SUBSCRIPTION_MESSAGES.testKey);
    return caller as Caller;
  }

  /** The template id to shape events with, checked as a lookup checks it. */
  async function templateOf(id: number | undefined, caller: Caller): Promise<number> {
    const templateId = id ?? DEFAULT_TEMPLATE_ID;
    try {
      if (await deps.templates.resolve(templateId, caller)) return templateId;
    } catch (error) {
      if (error instanceof TemplateError) throw new Unprocessable(error.message);
      throw error;
    }
    const gone = await deletedTemplate(database, templateId, caller);
    if (gone) throw new NotFound(TEMPLATE_MESSAGES.deleted(gone));
    const message = TEMPLATE_MESSAGES.unknown(templateId);
    throw new BadRequest(message, [{ path: 'body.template', message }]);
  }

  /** The identity the body names, and the input it was found by. */
  async function targetOf(body: SubscriptionBody) {
    if (body.identityId !== undefined) {
      if (!(await identityExists(database, body.identityId))) {
        throw new NotFound(SUBSCRIPTION_MESSAGES.unknownIdentity(body.identityId));
      }
      return { identityId: body.identityId, input: null };
    }
    const kind = SUBSCRIPTION_INPUTS.find((k) => body[k] !== undefined)!;
    const value = normalizedInput(kind, body[kind]!);
    if (value === null) {
      const message = SUBSCRIPTION_MESSAGES.input(kind);
      throw new BadRequest(message, [{ path: `body.${kind}`, message }]);
    }
    const identityId = await resolveInput(database, kind, value);
    if (identityId === null) throw new NotFound(SUBSCRIPTION_MESSAGES.unresolved(kind));
    return { identityId, input: { kind, value } };
  }

  r.post(SUBSCRIPTION_PATHS.list, { schema: { body: subscriptionBody }, preValidation }, async (request, reply) => {
    const caller = await callerFor(request);
    // As a lookup: 402, 400/403 for the permissible purpose, or 429 with Retry-After; the RateLimit headers either way.
    const { purpose } = await identify(deps, request, reply);
    const body = request.body;
    // With an Idempotency-Key, a retry gets the first reply back and makes no second subscription.
    const claim = deps.idempotency.keyOf(request, caller);
    const hash = requestHasher(request).update(JSON.stringify(body)).digest('hex');
    if (claim && !(await deps.idempotency.claim(claim, hash, reply))) return reply;
    try {
      const templateId = await templateOf(body.template, caller);
      const target = await targetOf(body);
      const row = await database.transaction(async (tx) => {
        const terms = await contractTerms(tx, caller.organizationId);
        const limit = terms?.subscriptionLimit ?? null;
        const made = await insertSubscription(
          tx,
          {
            organizationId: caller.organizationId,
            userId: caller.userId,
            keyId: caller.keyId,
            templateId,
            purpose,
            ...target,
          },
          limit,
        );
        if (!made) throw new Conflict(SUBSCRIPTION_MESSAGES.limit(limit!));
        return made;
      });
      const answer = { subscriptions: keyed([toSubscription(row)]) };
      if (claim) {
        const kept = { hash, status: 201, contentType: 'application/json; charset=utf-8' };
        await deps.idempotency
          .finish(claim, { ...kept, body: Buffer.from(JSON.stringify(answer)) })
          .catch(() => deps.idempotency.abandon(claim)); // made: answered even if it cannot be kept for replay
      }
      reply.code(201);
      return answer;
    } catch (error) {
      if (claim) await deps.idempotency.abandon(claim);
      throw error;
    }
  });

  r.get(SUBSCRIPTION_PATHS.list, { schema: { querystring: subscriptionListQuery }, preValidation }, async (request) => {
    const caller = await callerFor(request);
    const found = await listSubscriptions(database.db, caller.organizationId, request.query.before ?? null);
    // What any member may know of the limit they subscribe under: how many are live, and the contract's limit.
    const [live, terms] = await Promise.all([
      liveSubscriptions(database.db, caller.organizationId),
      contractTerms(database.db, caller.organizationId),
    ]);
    return { subscriptions: keyed(found.map(toSubscription)), live, limit: terms?.subscriptionLimit ?? null };
  });

  r.get(SUBSCRIPTION_PATHS.one(':id'), { schema: { params: subscriptionParams }, preValidation }, async (request) => {
    const caller = await callerFor(request);
    const row = await findSubscription(database.db, caller.organizationId, request.params.id);
    if (!row) throw new NotFound(SUBSCRIPTION_MESSAGES.notFound);
    return { subscriptions: keyed([toSubscription(row)]) };
  });

  r.delete(
    SUBSCRIPTION_PATHS.one(':id'),
    { schema: { params: subscriptionParams }, preValidation },
    async (request) => {
      const caller = await callerFor(request);
      const id = request.params.id;
      if (!(await deleteSubscription(database.db, caller.organizationId, id))) {
        throw new NotFound(SUBSCRIPTION_MESSAGES.notFound);
      }
      return { subscriptions: deleted(id) };
    },
  );
}
