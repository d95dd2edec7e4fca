/**
 * A request's identity (decision 0046): the `X-Request-Id` a client or a balancer sends (HAProxy's `unique-id`), when
 * it is 1-128 letters, digits and `.` `_` `:` `-` `+` `/` `=` `~`; else one the server makes. A retry that carries the
 * same id (a balancer retrying on another node) is metered once. A malformed id answers 400 naming the header.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID, REQUEST_ID_MESSAGES } from '@tessera/common/lookups';
import type { FastifyInstance } from 'fastify';
import { BadRequest } from './errors';

export const REQUEST_ID_HEADER = REQUEST_ID.header;
const VALID = REQUEST_ID.pattern;
const REQUEST_ID_MESSAGE = REQUEST_ID_MESSAGES.malformed;

/** The request's id: the one it carries when valid, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && VALID.test(sent) ? sent : randomUUID();
}

/** Refuses a request whose X-Request-Id is malformed (or repeated) rather than quietly give it another id. */
export function registerRequestIdCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const sent = request.headers[REQUEST_ID_HEADER];
    if (sent === undefined || (typeof sent === 'string' && VALID.test(sent))) return;
    throw new BadRequest(REQUEST_ID_MESSAGE, [{ path: `headers.${REQUEST_ID_HEADER}`, message: REQUEST_ID_MESSAGE }]);
  });
}
