/** Spec §1 and §8: status titles and messages, shared by the error page, the API client and the server. */
export const ERROR_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Error',
  403: 'Forbidden',
  404: 'Page Not Found',
  409: 'Conflict Error',
  451: 'Legal Notice',
  500: 'Server Error',
};

/** A status's title; any code the spec does not name, or none at all (null), is 'Error'. */
export function errorTitle(code: number | null): string {
  return (code !== null && ERROR_TITLES[code]) || 'Error';
}

/**
 * The status an error page's address names (spec §2 error screen): none means 404; a number is taken as it is,
 * known or not; anything else names no status (null), shown as 'Error' with the generic message.
 */
export function routeErrorCode(value: string | undefined): number | null {
  if (value === undefined) return 404;
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

export const ERROR_MESSAGES = {
  404: "We're sorry! The page you're looking for does not exist.",
  403: "We're sorry! You do not have permission to access the page you requested.",
  other: "We're sorry! An error has occurred. Please try again later.",
} as const;

export function errorMessage(code: number | null): string {
  if (code === 404) return ERROR_MESSAGES[404];
  if (code === 403) return ERROR_MESSAGES[403];
  return ERROR_MESSAGES.other;
}

/** The standard names the client falls back to when a body carries no error text (spec §8). */
export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Stable machine codes carried in every error body. */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'payment_required',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  /** 410: what was asked for existed and was deleted as its retention said (a bulk job's result). */
  'gone',
  /** 412: If-Match named a version the key or template has moved on from (issue 31). */
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'unprocessable',
  'rate_limited',
  'legal_notice',
  'internal',
  'unavailable',
  /** 403: the password must be confirmed again first (POST /auth/confirm), e.g. before the query console. */
  'step_up_required',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  /** Dotted path of the failing field, e.g. `body.email` or `query.limit`. */
  path: string;
  message: string;
}

/** The body of every error reply. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  requestId: string;
  fields?: FieldError[];
}
