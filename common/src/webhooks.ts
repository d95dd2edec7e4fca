/**
 * Webhooks (issue 33, decision 0066): the event types an organization's endpoints can receive, the limits and exact
 * messages of the endpoint API, the reply types, and the Standard Webhooks names. The signature itself (signing and
 * verifying) is in webhook-signature.ts, which needs Node's crypto and so stays out of the console bundle.
 */

/** Sent only by the endpoint's Test action; no subscription needed. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** What an endpoint can subscribe to: a subscribed identity changed (issue 33 item 2), a bulk job ended (item 3). */
export const WEBHOOK_SUBSCRIBABLE_EVENTS = ['identity.changed', 'job.completed'] as const;
export const WEBHOOK_EVENT_TYPES = [WEBHOOK_TEST_EVENT, ...WEBHOOK_SUBSCRIBABLE_EVENTS] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookSubscribableEvent = (typeof WEBHOOK_SUBSCRIBABLE_EVENTS)[number];

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'webhook.test': 'A test event, sent when you ask for one.',
  'identity.changed': 'A subscribed identity changed: what was added, changed or removed, and the new record.',
  'job.completed': 'A bulk job ended: its counts and where to download its result.',
};

export const isSubscribableEvent = (value: string): value is WebhookSubscribableEvent =>
  (WEBHOOK_SUBSCRIBABLE_EVENTS as readonly string[]).includes(value);

/** The Standard Webhooks headers of every delivery (https://www.standardwebhooks.com). */
export const WEBHOOK_HEADERS = {
  /** The message id: the same on every attempt and on a replay, so a receiver can drop repeats. */
  id: 'webhook-id',
  /** Unix seconds of this attempt. */
  timestamp: 'webhook-timestamp',
  /** `v1,{base64 HMAC-SHA256}`; during a rotation's overlap two of them, space separated. */
  signature: 'webhook-signature',
} as const;

/** A signing secret: this prefix and the base64 of 32 random bytes (the HMAC key). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;
/** A message id: this prefix and random letters, digits, `-` and `_`. */
export const WEBHOOK_MESSAGE_ID_PREFIX = 'msg_';

export const WEBHOOK_LIMITS = {
  urlMax: 2048,
  descriptionMax: 500,
  endpointsPerOrganization: 20,
  /** A delivery's body (`{type, timestamp, data}`) at most; a bigger event is a programming error. */
  payloadMaxBytes: 256 * 1024,
  /** The receiver's answer is read up to this much, then the connection is dropped. */
  responseReadBytes: 64 * 1024,
  /** How much of the answer's body the delivery log keeps per attempt. */
  responseExcerptBytes: 1024,
  /** A verifier's default tolerance between webhook-timestamp and its clock, either way. */
  toleranceSeconds: 5 * 60,
} as const;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Why an endpoint is off: switched off by a person, or by the run of failures. */
export type WebhookDisabledReason = 'manual' | 'failures';

export const WEBHOOK_PATHS = {
  endpoints: '/v2/webhooks',
  endpoint: (id: number | ':id') => `/v2/webhooks/${id}`,
  rotateSecret: (id: number | ':id') => `/v2/webhooks/${id}/rotate-secret`,
  test: (id: number | ':id') => `/v2/webhooks/${id}/test`,
  deliveries: (id: number | ':id') => `/v2/webhooks/${id}/deliveries`,
  replay: (id: number | ':id', deliveryId: number | ':deliveryId') =>
    `/v2/webhooks/${id}/deliveries/${deliveryId}/replay`,
} as const;

/** The console page the disabled-endpoint mail links to. */
export const WEBHOOK_CONSOLE_PATH = '/webhooks';

/** The kinds of address no webhook may reach unless WEBHOOK_ALLOW_PRIVATE=true, as the refusal names them. */
export type BlockedAddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cloud metadata'
  | 'carrier-grade NAT'
  | 'unique local'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved';

const article = (kind: string) => (/^[aeiou]/.test(kind) ? 'an' : 'a');

export const WEBHOOK_MESSAGES = {
  forbidden: "Only the organization's administrators can manage its webhooks.",
  notFound: 'No such webhook endpoint.',
  deliveryNotFound: 'No such delivery of this endpoint.',
  organizationNotFound: 'No such organization.',
  organizationRequired: 'Please choose the organization the endpoint belongs to.',
  url: 'Please provide an absolute URL, such as https://example.com/webhooks.',
  urlTooLong: `Please provide a URL of at most ${WEBHOOK_LIMITS.urlMax} characters.`,
  urlScheme: 'The URL must start with https:// (http:// only for a loopback address such as 127.0.0.1).',
  urlCredentials: 'The URL may not carry a user name or password; put a token in its path or query instead.',
  urlFragment: 'The URL may not have a #fragment, which is never sent.',
  /** The host is an address of a kind no webhook may reach. */
  blockedAddress: (host: string, kind: BlockedAddressKind) =>
    `${host} is ${article(kind)} ${kind} address: webhooks cannot reach loopback, link-local or private addresses.`,
  /** The host is a name that resolves to such an address. */
  blockedName: (host: string, address: string, kind: BlockedAddressKind) =>
    `${host} resolves to ${address}, ${article(kind)} ${kind} address: webhooks cannot reach loopback, link-local or private addresses.`,
  unresolved: (host: string) => `${host} could not be resolved to an address; check the host name.`,
  description: `Please provide a description of at most ${WEBHOOK_LIMITS.descriptionMax} characters.`,
  events: 'Please choose at least one event.',
  eventUnknown: (value: string) =>
    `"${value}" is not an event an endpoint can subscribe to: ${WEBHOOK_SUBSCRIBABLE_EVENTS.join(', ')}.`,
  eventRepeated: (value: string) => `"${value}" is listed twice.`,
  tooMany: `An organization can have at most ${WEBHOOK_LIMITS.endpointsPerOrganization} webhook endpoints.`,
  disabled: 'This endpoint is disabled: enable it first.',
  cursor: 'This cursor is not one this list gave; start again from the first page.',
} as const;

/**
 * A host naming this machine, as the URL parser writes it: `localhost` (or a name under it), an address in
 * 127.0.0.0/8, `[::1]` or an IPv4-mapped loopback address (`[::ffff:7f00:1]`). The parser has already turned other
 * spellings of an address (`2130706433`, `0x7f.1`) into these.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return (
    /^(.+\.)?localhost\.?$/i.test(host) ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '::1' ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/i.test(host)
  );
}

/**
 * The shape of an endpoint URL, the same rule for the console's form and the server: absolute, https (http only to
 * a loopback host), no user name or password, no fragment. Null when it is fine. Whether its host is, or resolves
 * to, an address no webhook may reach only the server can say (it resolves names and knows WEBHOOK_ALLOW_PRIVATE).
 */
export function webhookUrlProblem(text: string): string | null {
  if (text.length > WEBHOOK_LIMITS.urlMax) return WEBHOOK_MESSAGES.urlTooLong;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return WEBHOOK_MESSAGES.url;
  }
  if (!url.hostname) return WEBHOOK_MESSAGES.url;
  const httpLocal = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !httpLocal) return WEBHOOK_MESSAGES.urlScheme;
  if (url.username || url.password) return WEBHOOK_MESSAGES.urlCredentials;
  if (url.hash || text.includes('#')) return WEBHOOK_MESSAGES.urlFragment;
  return null;
}

/** An endpoint as its organization's administrators see it. The secret is only in the create and rotate replies. */
export interface WebhookEndpoint {
  id: number;
  organizationId: number;
  url: string;
  description: string;
  events: WebhookSubscribableEvent[];
  enabled: boolean;
  /** When and why it was switched off; null while enabled. */
  disabledAt: string | null;
  disabledReason: WebhookDisabledReason | null;
  /** Attempts that failed in a row, up to the last success; at WEBHOOK_DISABLE_AFTER_FAILURES it is disabled. */
  consecutiveFailures: number;
  /** After a rotation: until when deliveries are signed with the previous secret too; null otherwise. */
  previousSecretValidUntil: string | null;
  createdAt: string;
  updatedAt: string;
  /** `whsec_...`: in the reply to a creation or a rotation only. */
  secret?: string;
}

/** One try at sending a delivery. */
export interface WebhookAttempt {
  /** 1 for the first try. */
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when none came (refused, timed out, interrupted). */
  statusCode: number | null;
  /** Why it failed without a status; null otherwise. */
  error: string | null;
  latencyMs: number;
  /** The start of the receiver's answer (at most WEBHOOK_LIMITS.responseExcerptBytes bytes of it, as text). */
  responseExcerpt: string;
}

/** One message on its way to one endpoint, with every attempt made. */
export interface WebhookDelivery {
  id: number;
  endpointId: number;
  /** The webhook-id header: the same on every attempt and replay of the message. */
  messageId: string;
  eventType: WebhookEventType;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastAttemptAt: string | null;
  /** When the next attempt is due; null once it succeeded or failed. */
  nextAttemptAt: string | null;
  /** The delivery this one replays, if it is a replay. */
  replayOf: number | null;
  createdAt: string;
  attempts: WebhookAttempt[];
}

/** GET /v2/webhooks/{id}/deliveries: newest first, a page at a time. */
export interface WebhookDeliveryPage {
  endpointId: number;
  deliveries: WebhookDelivery[];
  /** The `after` of the next page; null on the last. */
  next: string | null;
}

/** The body of every delivery. */
export interface WebhookEvent<T = unknown> {
  type: WebhookEventType;
  /** When the event happened (ISO 8601, UTC). */
  timestamp: string;
  data: T;
}
