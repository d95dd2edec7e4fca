/**
 * Change subscriptions (issue 33 item 2, decision 0067): a key or a console user subscribes to identities, by id or
 * by an input (an e-mail, a phone or an e-mail's hash) resolved now and again when its holder changes; each change of
 * a subscribed identity's record goes out as one `identity.changed` webhook event per subscription.
 */

/** The inputs a subscription may name its identity by (a key the graph holds one way: lookup-inputs.ts). */
export const SUBSCRIPTION_INPUTS = ['email', 'phone', 'md5', 'sha256'] as const;
export type SubscriptionInput = (typeof SUBSCRIPTION_INPUTS)[number];

export const SUBSCRIPTION_PATHS = {
  list: '/v2/subscriptions',
  one: (id: number | ':id') => `/v2/subscriptions/${id}`,
} as const;

export const SUBSCRIPTION_LIMITS = {
  /** Subscriptions a list page holds at most. */
  page: 100,
} as const;

export interface Subscription {
  id: number;
  organizationId: number;
  /** The user who subscribed (the key's user for a key). */
  userId: number;
  /** The API key that subscribed, or null for a console user. */
  keyId: string | null;
  identityId: number;
  /** The input the identity was found by, normalized, or null for a subscription by id. */
  input: { kind: SubscriptionInput; value: string } | null;
  templateId: number;
  createdAt: string;
}

/** Paths of the record, as `emails[0].address`, that a change added, changed or removed. */
export interface SubscriptionChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/** The `data` of an `identity.changed` event (docs/subscriptions.md). */
export type IdentityChangedData =
  | {
      subscriptionId: number;
      identityId: number;
      suppressed: false;
      /** Why the record changed: an import or update of the graph, or a change of the suppression list. */
      cause: 'import' | 'suppression';
      changes: SubscriptionChanges;
      /** The new record as the subscription's template shapes it (null with `templateError` when it failed). */
      record: Record<string, unknown> | null;
      templateError?: string;
      /** The identity the subscription's input belonged to before this change moved it. */
      movedFrom?: number;
    }
  | { subscriptionId: number; identityId: number; suppressed: true };

/** An input kind as a message names it. */
const INPUT_NAMES: Record<SubscriptionInput, string> = {
  email: 'e-mail address',
  phone: 'phone number',
  md5: 'MD5 hash',
  sha256: 'SHA-256 hash',
};

export const SUBSCRIPTION_MESSAGES = {
  notFound: 'No such subscription.',
  organizationRequired: 'Subscriptions belong to an organization: sign in as one of its members or use its API key.',
  testKey: 'A test key cannot subscribe to changes: use a live key.',
  oneTarget: `Please give exactly one of identityId, ${SUBSCRIPTION_INPUTS.join(', ')}.`,
  identityId: 'Please give an identity id: a whole number from 1.',
  unknownIdentity: (id: number) => `No identity ${id} was found.`,
  input: (kind: SubscriptionInput) => `Please give a valid ${INPUT_NAMES[kind]}.`,
  unresolved: (kind: SubscriptionInput) => `No identity holds this ${INPUT_NAMES[kind]}.`,
  limit: (limit: number) =>
    `Your organization has reached its contract's limit of ${limit.toLocaleString('en-US')} subscriptions; delete one or ask for a higher limit.`,
} as const;
