/**
 * Change subscriptions (the server's docs/subscriptions.md): each time a subscribed identity's record changes, the
 * organization's webhook endpoints that take `identity.changed` get an event (verify it with `verifyWebhook`).
 * Made with a live key of an organization; listed, read and deleted across the organization.
 */
import { TesseraError } from './errors.js';
import { type Caller, jsonCall } from './exchange.js';
import type { DeletedSubscription, NewSubscription, Subscription } from './generated/openapi.js';
import { withMeta } from './reply-meta.js';
import { idText } from './request-parts.js';
import { uuid } from './retry.js';
import type { CallOptions, ReplyMeta, WriteCallOptions } from './types.js';

const PATH = '/v2/subscriptions';
/** Subscriptions the server lists a page (docs/subscriptions.md): a shorter page is the last. */
export const SUBSCRIPTION_PAGE_SIZE = 100;

/** A subscription as the server answered it, with `meta` (not enumerable). */
export type SubscriptionReply = Subscription & { readonly meta: ReplyMeta };

/** A deleted subscription (`id`, `deletedAt`), with `meta` (not enumerable). */
export type DeletedSubscriptionReply = DeletedSubscription & { readonly meta: ReplyMeta };

/** A page of the organization's subscriptions, newest first: pass `next` as `before` for the next (null on the last). */
export interface SubscriptionPage {
  subscriptions: Subscription[];
  next: number | null;
  /** The organization's live subscriptions, every page. */
  live: number;
  /** The contract's subscription limit; null when it sets none. */
  limit: number | null;
  readonly meta: ReplyMeta;
}

/** Which page of subscriptions to list. */
export interface SubscriptionListQuery extends CallOptions {
  /** Only subscriptions with a smaller id: the `next` of the page before. */
  before?: number;
}

const pathOf = (id: number) => `${PATH}/${idText(id)}`;

/** The subscriptions of the key's organization (`client.subscriptions`). */
export class Subscriptions {
  private readonly caller: Caller;

  /** Made by the client. */
  constructor(caller: Caller) {
    this.caller = caller;
  }

  /**
   * Subscribes to one identity (POST /v2/subscriptions): by `identityId`, or by exactly one of `email`, `phone`,
   * `md5`, `sha256`, resolved now to the identity holding it (and again whenever that identity changes); `template`
   * shapes each event's record (Full by default). An identity or input no one holds is a TesseraError with status 404;
   * past the contract's subscription limit, 409. It carries an Idempotency-Key (a random one unless given; `false`
   * sends none), the same on every retry, so a retry (after 429, 503 or no reply) makes no second subscription.
   */
  async create(target: NewSubscription, options: WriteCallOptions = {}): Promise<SubscriptionReply> {
    if (typeof target !== 'object' || target === null) {
      throw new TypeError('create() takes { identityId } or one of { email, phone, md5, sha256 }, and template.');
    }
    const json = JSON.stringify(target);
    const reply = await this.caller.json({
      ...jsonCall('POST', PATH, options),
      headers: { 'content-type': 'application/json' },
      body: async () => ({ body: json, stream: false, stop: () => undefined }),
      idempotencyKey: options.idempotencyKey === false ? undefined : (options.idempotencyKey ?? uuid()),
    });
    return withMeta({ ...this.first(reply) }, reply.meta);
  }

  /**
   * A page of the organization's subscriptions, newest first (GET /v2/subscriptions), 100 at most, with how many the
   * organization holds (`live`) against its contract's `limit`.
   */
  async list(query: SubscriptionListQuery = {}): Promise<SubscriptionPage> {
    const search = new URLSearchParams();
    if (query.before !== undefined) search.set('before', idText(query.before));
    const reply = await this.caller.json(jsonCall('GET', PATH, query, search));
    const subscriptions = this.itemsOf(reply).sort((a, b) => b.id - a.id);
    const last = subscriptions.at(-1);
    const next = subscriptions.length >= SUBSCRIPTION_PAGE_SIZE && last ? last.id : null;
    const live = typeof reply.live === 'number' ? reply.live : subscriptions.length;
    const limit = typeof reply.limit === 'number' ? reply.limit : null;
    return withMeta({ subscriptions, next, live, limit }, reply.meta) as SubscriptionPage;
  }

  /** Every subscription of the organization, newest first, a page at a time. */
  async *all(query: SubscriptionListQuery = {}): AsyncGenerator<Subscription> {
    let before = query.before;
    for (;;) {
      const page = await this.list({ ...query, ...(before === undefined ? {} : { before }) });
      yield* page.subscriptions;
      if (page.next === null) return;
      before = page.next;
    }
  }

  /** One subscription (GET /v2/subscriptions/{id}); another organization's, or a deleted one, is a 404. */
  async get(id: number, options: CallOptions = {}): Promise<SubscriptionReply> {
    const reply = await this.caller.json(jsonCall('GET', pathOf(id), options));
    return withMeta({ ...this.first(reply) }, reply.meta);
  }

  /** Deletes a subscription (DELETE /v2/subscriptions/{id}): no event is sent for it after. */
  async delete(id: number, options: CallOptions = {}): Promise<DeletedSubscriptionReply> {
    const reply = await this.caller.json(jsonCall('DELETE', pathOf(id), options));
    const gone = Object.values((reply.subscriptions ?? {}) as Record<string, DeletedSubscription>)[0];
    if (!gone) throw this.badReply(reply);
    return withMeta({ ...gone }, reply.meta);
  }

  private itemsOf(reply: Record<string, unknown> & { readonly meta: ReplyMeta }): Subscription[] {
    const keyed = reply.subscriptions;
    if (typeof keyed !== 'object' || keyed === null) throw this.badReply(reply);
    return Object.values(keyed as Record<string, Subscription>);
  }

  private first(reply: Record<string, unknown> & { readonly meta: ReplyMeta }): Subscription {
    const found = this.itemsOf(reply)[0];
    if (!found) throw this.badReply(reply);
    return found;
  }

  private badReply(reply: Record<string, unknown> & { readonly meta: ReplyMeta }): TesseraError {
    return new TesseraError({
      status: reply.meta.status,
      code: 'invalid_response',
      message: 'The reply had no subscription.',
      requestId: reply.meta.requestId,
      body: reply,
      attempts: reply.meta.attempts,
    });
  }
}
