/**
 * One access line per request (issue 30, item 4), written when the reply has gone: method, route, status, time,
 * bytes, request id, who it acted for (user, organization, API key id) and the client's address (after TRUST_PROXY).
 * Never a secret, a query value or personal data: the URL is logged with its values redacted, a key by its public id.
 * Fastify's own two lines per request are off (app.ts); "incoming request" is kept at debug level.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactUrl } from '../logger';

/** The message of the access line (tests and log pipelines find the lines by it). */
export const ACCESS_LINE = 'request completed';

const startBytes = new WeakMap<FastifyRequest, number>();

export function registerAccessLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const written = request.raw.socket?.bytesWritten;
    if (typeof written === 'number') startBytes.set(request, written);
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'incoming request');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const p = request.principal;
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        bytes: bytesOf(request, reply.getHeader('content-length')),
        userId: p?.userId ?? null,
        organizationId: p?.organizationId ?? null,
        keyId: p?.keyId ?? null,
        ...(p?.impersonatorId ? { impersonatorId: p.impersonatorId } : {}),
        ip: request.ip,
      },
      ACCESS_LINE,
    );
  });
}

/**
 * Bytes sent for the reply, headers included: what the connection wrote since the request came (replies on one
 * connection go one after another); the body's declared length where no socket counts (an injected request).
 */
function bytesOf(request: FastifyRequest, length: unknown): number | null {
  const before = startBytes.get(request);
  const now = request.raw.socket?.bytesWritten;
  if (before !== undefined && typeof now === 'number' && now >= before) return now - before;
  const declared = Number(length);
  return Number.isFinite(declared) ? declared : null;
}
