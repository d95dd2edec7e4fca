/**
 * The Subscriptions page's pure parts (issue 33 item 2): the ways to subscribe and their checks (the server's own
 * rules: common/lookup-inputs.ts normalizes as the server does, common/subscriptions.ts words the refusals), the body
 * a Subscribe sends, what a listed subscription follows, and the line telling the use of the contract's subscription
 * limit, as the API tells it.
 */
import { KEY_NORMALIZERS, normalizeIdentityId } from '@tessera/common/lookup-inputs';
import { SUBSCRIPTION_INPUTS, SUBSCRIPTION_MESSAGES, type Subscription } from '@tessera/common/subscriptions';

/** What a subscription names its identity by: its id, or an input resolved to its holder. */
export const SUBSCRIBE_KINDS = ['identityId', ...SUBSCRIPTION_INPUTS] as const;
export type SubscribeKind = (typeof SUBSCRIBE_KINDS)[number];

export const KIND_LABEL: Record<SubscribeKind, string> = {
  identityId: 'Identity ID',
  email: 'E-mail',
  phone: 'Phone',
  md5: 'MD5 of an e-mail',
  sha256: 'SHA-256 of an e-mail',
};

/** The value field's label and its 'Please provide …' noun, by kind. */
export const VALUE_FIELD: Record<SubscribeKind, { label: string; what: string; help: string }> = {
  identityId: { label: 'Identity ID', what: 'an identity ID', help: 'The identity to follow, by its id.' },
  email: {
    label: 'E-mail address',
    what: 'an e-mail address',
    help: 'Follows whoever holds this e-mail, now and after it moves.',
  },
  phone: { label: 'Phone number', what: 'a phone number', help: 'Follows whoever holds this phone number.' },
  md5: { label: 'MD5 hash', what: 'an MD5 hash', help: "An e-mail's MD5 hash: 32 hexadecimal digits." },
  sha256: { label: 'SHA-256 hash', what: 'a SHA-256 hash', help: "An e-mail's SHA-256 hash: 64 hexadecimal digits." },
};

export const isSubscribeKind = (value: string): value is SubscribeKind =>
  (SUBSCRIBE_KINDS as readonly string[]).includes(value);

/** The Subscribe form's values: every one a string, as the form kit keeps them. */
export type SubscribeValues = {
  kind: string;
  value: string;
  /** A template id, or '' for the API's default (Full). */
  template: string;
};

export const EMPTY_SUBSCRIBE: SubscribeValues = { kind: 'email', value: '', template: '' };

/** Why the server would refuse the value as its kind, or undefined when it takes it. */
export function valueProblem(kind: string, value: string): string | undefined {
  if (!isSubscribeKind(kind)) return undefined;
  if (kind === 'identityId') return normalizeIdentityId(value) === null ? SUBSCRIPTION_MESSAGES.identityId : undefined;
  return KEY_NORMALIZERS[kind](value) === null ? SUBSCRIPTION_MESSAGES.input(kind) : undefined;
}

/** What POST /v2/subscriptions is sent: exactly one target, and the template when one was chosen. */
export type SubscribeBody = Partial<Record<SubscribeKind, string | number>> & { template?: number };

export function subscribeBody(values: SubscribeValues): SubscribeBody {
  const kind = isSubscribeKind(values.kind) ? values.kind : 'email';
  const value = values.value.trim();
  const target =
    kind === 'identityId' ? { identityId: normalizeIdentityId(value) ?? Number(value) } : { [kind]: value };
  return { ...target, ...(values.template === '' ? {} : { template: Number(values.template) }) };
}

/** What a listed subscription follows: its input's kind and normalized value, or the identity by id. */
export function followsOf(subscription: Pick<Subscription, 'input'>): { label: string; value: string | null } {
  const { input } = subscription;
  return input ? { label: KIND_LABEL[input.kind], value: input.value } : { label: 'Identity ID', value: null };
}

/**
 * The organization's use of its contract's subscription limit as the page knows it: `live` and `limit` from a list
 * reply, or `live` moved by a Subscribe or a Delete made here. `stamp` orders what is known: a list read is stamped
 * when it is sent, a change when it is made, from one counter.
 */
export interface LimitUse {
  live: number;
  limit: number | null;
  stamp: number;
}

/**
 * What is known once a list reply comes: the reply's figures, unless something later is known already (a reply to a
 * later read, or a change made after this read was sent, which it may or may not count).
 */
export function newerUse(known: LimitUse | null, read: LimitUse): LimitUse {
  return known && known.stamp > read.stamp ? known : read;
}

/**
 * What is known once a subscription is made (+1) or deleted (-1) here: the live count moved by one. Nothing is known
 * before the first reply, which is under way and tells.
 */
export function changedUse(known: LimitUse | null, by: 1 | -1, stamp: number): LimitUse | null {
  return known && { live: Math.max(0, known.live + by), limit: known.limit, stamp };
}

const count = (n: number) => n.toLocaleString('en-US');
const subscriptions = (n: number) => (n === 1 ? 'subscription' : 'subscriptions');

/** The line telling the organization's use against its contract's limit; null until the API has told it. */
export function limitText(use: Pick<LimitUse, 'live' | 'limit'> | null): string | null {
  if (!use) return null;
  const { live, limit } = use;
  return limit === null
    ? `${count(live)} ${subscriptions(live)} in use; your contract sets no limit.`
    : `${count(live)} of ${count(limit)} ${subscriptions(limit)} in use (your contract's limit).`;
}
