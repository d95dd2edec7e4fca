/**
 * The console's calls to /v2/subscriptions (issue 33 item 2, decision 0067). Subscriptions are the page's own list,
 * not a data area of the store: replies are read, never merged. Every page of the list also tells the organization's
 * use of its contract's subscription limit (`live`, `limit`), to any member. A Subscribe's refusals (a bad input, no one holding
 * it, the contract's limit, no contract in force, the rate limit) are claimed: the form shows them beside itself,
 * instead of the client's alert or error page.
 */
import { SUBSCRIPTION_PATHS, type Subscription } from '@tessera/common/subscriptions';
import { ApiError, request } from '../../lib/api';
import type { SubscribeBody } from './subscription-values';

/** The statuses of a refused Subscribe that the form shows itself. */
export const FORM_STATUSES = [400, 402, 404, 409, 422, 429] as const;

const only = (reply: { subscriptions?: Record<string, Subscription> }): Subscription[] =>
  Object.values(reply.subscriptions ?? {});

/** A page of the list as GET /v2/subscriptions answers it (the SubscriptionList schema). */
interface ListReply {
  subscriptions?: Record<string, Subscription>;
  /** The organization's live subscriptions, every page. */
  live: number;
  /** The contract's subscription limit; null when it sets none or there is no contract. */
  limit: number | null;
}

export interface SubscriptionPage {
  /** Newest first. */
  items: Subscription[];
  live: number;
  limit: number | null;
}

/** One page of the organization's subscriptions, and its use of the limit; `before` is the oldest id already shown. */
export async function subscriptionPage(before: number | null): Promise<SubscriptionPage> {
  const reply = await request<ListReply>('GET', SUBSCRIPTION_PATHS.list, { query: { before }, merge: false });
  return { items: only(reply).sort((a, b) => b.id - a.id), live: reply.live, limit: reply.limit };
}

export async function subscribe(body: SubscribeBody): Promise<Subscription> {
  const reply = await request<{ subscriptions?: Record<string, Subscription> }>('POST', SUBSCRIPTION_PATHS.list, {
    body,
    merge: false,
    claim: (status) => (FORM_STATUSES as readonly number[]).includes(status),
  });
  const [made] = only(reply);
  if (!made) throw new Error('The reply carries no subscription.');
  return made;
}

/** Deletes one; true when it was deleted now, false when it was gone already (a 404, claimed). */
export async function unsubscribe(id: number): Promise<boolean> {
  try {
    await request('DELETE', SUBSCRIPTION_PATHS.one(id), { merge: false, claim: (status) => status === 404 });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}
