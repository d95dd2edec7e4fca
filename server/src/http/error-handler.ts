/** The one place where failures become replies. Internals never reach the wire. */
import type { ErrorBody, ErrorCode, FieldError } from '@tessera/common/errors';
import { STATUS_NAMES } from '@tessera/common/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { createFaultLog, DATABASE_RETRY_AFTER_SECONDS, databaseFault } from '../db/faults';
import { databaseFaults } from '../observability/metrics';
import { AppError, Unavailable } from './errors';
import { isProbePath } from './probes';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  451: 'legal_notice',
  503: 'unavailable',
};

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  error: string,
  fields?: FieldError[],
): FastifyReply {
  const body: ErrorBody = { error, code, requestId: String(reply.request.id) };
  if (fields) body.fields = fields;
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function validationFields(error: FastifyError): FieldError[] {
  const context = error.validationContext ?? 'body';
  return (error.validation ?? []).map((v) => {
    const raw = v as unknown as { instancePath?: string; message?: string; params?: { issue?: { path?: unknown[] } } };
    const issuePath = raw.params?.issue?.path;
    const segments = Array.isArray(issuePath)
      ? issuePath.map(String)
      : (raw.instancePath ?? '').split('/').filter(Boolean);
    return { path: [context, ...segments].join('.'), message: raw.message ?? 'Invalid value.' };
  });
}

export const DATABASE_UNAVAILABLE = 'The database is unavailable for a moment. Please retry shortly.';
export const DRAINING = 'The server is restarting. Please retry shortly.';
/** A draining process answers new requests 503 until it exits; a balancer or the client retries elsewhere or later. */
export const DRAIN_RETRY_AFTER_SECONDS = 3;

/**
 * Every error reply has the project's body and the headers of its class (issue 28, finding 15). New requests while
 * the server drains get a 503 of ours: Fastify's own (`return503OnClosing`, turned off in app.ts) has a body of its
 * own and no Retry-After. An error some plugin sends without a body (@fastify/websocket's 404 to a plain GET, say)
 * gets the body here, and a 503 or 429 without Retry-After gets one. Node's parser errors, met before any request
 * exists, are answered by client-error.ts.
 */
function registerErrorShapes(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    // The probes answer for themselves: /readyz says it is draining, /livez that the process is still up.
    if (!draining || isProbePath(request.url)) return;
    reply.header('retry-after', String(DRAIN_RETRY_AFTER_SECONDS)).header('connection', 'close');
    return sendError(reply, 503, 'unavailable', DRAINING);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if (status < 400) return payload;
    if ((status === 503 || status === 429) && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    }
    if (!(payload === undefined || payload === null || payload === '' || isEmptyBuffer(payload))) return payload;
    reply.type('application/json; charset=utf-8');
    const body: ErrorBody = {
      error: STATUS_NAMES[status] ?? 'Error',
      code: codeOf(status),
      requestId: String(request.id),
    };
    return JSON.stringify(body);
  });
}

const isEmptyBuffer = (payload: unknown) => Buffer.isBuffer(payload) && payload.length === 0;

/** The machine code of a status no handler named. */
export const codeOf = (status: number): ErrorCode =>
  CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad_request');

export function registerErrorHandler(app: FastifyInstance): void {
  registerErrorShapes(app);
  const faults = createFaultLog(app.log);
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // A database that is away is nobody's mistake and passes: 503 with Retry-After, logged once per burst.
    const fault = databaseFault(error);
    if (fault) {
      faults.note(fault);
      databaseFaults.inc({ code: fault.code });
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      if (error instanceof AppError && error.status === 503) return sendError(reply, 503, error.code, error.message);
      return sendError(reply, 503, 'unavailable', DATABASE_UNAVAILABLE);
    }
    if (error instanceof AppError) {
      // What lies behind a 5xx of ours (e.g. the cluster's primary not answering) is for the log, not the client;
      // Unavailable's raisers log their own causes.
      if (error.status >= 500 && error.cause !== undefined && !(error instanceof Unavailable)) {
        request.log.warn({ err: error.cause }, error.message);
      }
      if (error.headers) reply.headers(error.headers);
      // RFC 9110: a 401 names how to authenticate. Keys go as Bearer (docs/api-keys.md); the console signs in.
      if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="tessera"');
      return sendError(reply, error.status, error.code, error.message, error.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const fields = validationFields(error);
      const names = fields.map((f) => f.path).join(', ');
      return sendError(reply, 400, 'validation_failed', `Invalid input: ${names}.`, fields);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'reply did not match its schema');
      return sendError(reply, 500, 'internal', 'An unexpected error occurred. Please try again later.');
    }
    if (isUniqueViolation(error)) {
      return sendError(reply, 409, 'conflict', 'This conflicts with an existing record. Reload and try again.');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, CODE_BY_STATUS[status] ?? 'bad_request', clientMessage(error, status, request));
    }
    request.log.error({ err: error }, 'request failed');
    if (status === 503) return sendError(reply, 503, 'unavailable', 'The service is temporarily unavailable.');
    return sendError(reply, 500, 'internal', 'An unexpected error occurred. Please try again later.');
  });
}

/** A unique index refused a write that raced another (both engines report SQLSTATE 23505, maybe as the cause). */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** The 413 of a body over the route's limit names the limit (decompressed bytes count: compression.ts). */
export function bodyTooLarge(limit: number | undefined): string {
  if (!limit) return 'The request body is too large.';
  const mb = limit / (1024 * 1024);
  const size = Number.isInteger(mb) ? `${mb} MB` : `${Math.round(limit / 1024).toLocaleString('en-US')} KB`;
  return `The request body is over the limit of ${size} (${limit.toLocaleString('en-US')} bytes, counted after decompression).`;
}

/** Fastify's own 4xx messages are safe to show; they name what was wrong with the request. */
function clientMessage(error: FastifyError, status: number, request: FastifyRequest): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty but its content type is JSON.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not supported here.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(request.routeOptions.bodyLimit);
    default:
      return error.message || STATUS_NAMES[status] || String(status);
  }
}
