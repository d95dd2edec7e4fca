/**
 * @tessera/client: the Tessera lookup API from Node 20+ and browsers, on fetch, with no dependencies.
 * Node-only helpers (reading a CSV file, saving a bulk job's result to one) are in `@tessera/client/node`.
 */
export { authorizationHeader, KEY_ID_LENGTH, splitKey } from './auth.js';
export { TesseraClient } from './client.js';
export { type CellOptions, CsvReply, type CsvReplyHooks, parseCsvRecord, unguardCell } from './csv.js';
export { type FieldError, parseRetryAfter, TesseraError, type TesseraErrorCode } from './errors.js';
export * from './generated/openapi.js';
export { JobResult, type JobResultItem } from './job-result.js';
export {
  ENDED_JOB_STATUSES,
  JOB_WAIT_DEFAULTS,
  type JobListQuery,
  type JobOptions,
  type JobPageReply,
  type JobReplyWithMeta,
  Jobs,
  type JobWaitOptions,
} from './jobs.js';
export { md5Hex } from './md5.js';
export {
  type DeletedSubscriptionReply,
  SUBSCRIPTION_PAGE_SIZE,
  type SubscriptionListQuery,
  type SubscriptionPage,
  type SubscriptionReply,
  Subscriptions,
} from './subscriptions.js';
export type {
  AuthMode,
  BatchItem,
  BatchOptions,
  BatchReply,
  BatchReplyFor,
  CallOptions,
  ChargeInfo,
  ClientOptions,
  CsvBody,
  CsvSource,
  CsvUploadOptions,
  IdentityFor,
  LookupOptions,
  LookupReply,
  LookupReplyFor,
  RateLimitInfo,
  ReplyMeta,
  RetryEvent,
  RetryOptions,
  UsageQuery,
  UsageReply,
  WriteCallOptions,
} from './types.js';
export { VERSION } from './version.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
  webhookSignature,
} from './webhooks.js';
