/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser cannot read never becomes a request, so neither routing nor
 * the error handler sees it. Its answer has the body of every other error (issue 28, finding 15), with a request id
 * of its own (the request's X-Request-Id could not be read), and the connection is closed, as Node's parser cannot
 * go on from there.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '@tessera/common/errors';
import type { FastifyInstance } from 'fastify';

/** Node's default limit on a request's headers (`--max-http-header-size`), in all. */
export const HEADER_LIMIT_BYTES = 16 * 1024;

export const CLIENT_ERROR_MESSAGES = {
  431: `The request's headers are too large: at most ${HEADER_LIMIT_BYTES / 1024} KB in all.`,
  408: 'The request took too long to arrive.',
  400: 'The request could not be read as HTTP.',
} as const;

function statusOf(code: string | undefined): keyof typeof CLIENT_ERROR_MESSAGES {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Sockets answered already: more bytes from the same client may fail again while the answer is being sent. */
const answered = new WeakSet<Socket>();

export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  const status = statusOf(error.code);
  const requestId = randomUUID();
  this.log.debug({ code: error.code, requestId }, 'unreadable request');
  const body: ErrorBody = { error: CLIENT_ERROR_MESSAGES[status], code: 'bad_request', requestId };
  const text = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(text)}`,
      `x-request-id: ${requestId}`,
      'cache-control: no-store',
      'connection: close',
      '',
      text,
    ].join('\r\n'),
    () => socket.destroy(),
  );
}
