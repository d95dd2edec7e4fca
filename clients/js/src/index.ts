/**
 * @tessera/client: the Tessera lookup API from Node 20+ and browsers, on fetch, with no dependencies.
 * Node-only helpers (reading a CSV file) are in `@tessera/client/node`.
 */
export { authorizationHeader, KEY_ID_LENGTH, splitKey } from './auth.js';
export { TesseraClient } from './client.js';
export { type CellOptions, CsvReply, type CsvReplyHooks, parseCsvRecord, unguardCell } from './csv.js';
export { type FieldError, parseRetryAfter, TesseraError, type TesseraErrorCode } from './errors.js';
export * from './generated/openapi.js';
export { md5Hex } from './md5.js';
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
