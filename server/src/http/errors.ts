/** Typed errors. Services throw these; one handler maps them to `{ error, code, requestId }` and a status. */
import type { ErrorCode, FieldError } from '@tessera/common/errors';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, fields?: FieldError[]) {
    super(400, fields ? 'validation_failed' : 'bad_request', message, fields);
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Please sign in.') {
    super(401, 'unauthorized', message);
  }
}

export class PaymentRequired extends AppError {
  constructor(message: string) {
    super(402, 'payment_required', message);
  }
}

export class Forbidden extends AppError {
  constructor(message = 'You do not have permission to do that.') {
    super(403, 'forbidden', message);
  }
}

export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}

export class Conflict extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

export class Unprocessable extends AppError {
  constructor(message: string) {
    super(422, 'unprocessable', message);
  }
}

export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'rate_limited', message, undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/** 451: the user has not accepted the current agreement. */
export class LegalNotice extends AppError {
  constructor(message = 'Please accept the current agreement to continue.') {
    super(451, 'legal_notice', message);
  }
}

export class Unavailable extends AppError {
  /** `cause`: the failure behind it, so a database fault is answered and logged as one (error-handler.ts). */
  constructor(message = 'The service is temporarily unavailable.', cause?: unknown) {
    super(503, 'unavailable', message);
    if (cause !== undefined) this.cause = cause;
  }
}
