/** GET /v2/openapi.json: the API's OpenAPI 3.1 document, public, built once, its server this deployment's PUBLIC_URL. */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../config';
import { openApiDocument } from './document';

/** PUBLIC_URL: as given, else as the environment configures the server (the app passes none yet). */
function publicUrlOf(given: URL | undefined): string {
  if (given) return given.href;
  try {
    return loadConfig().publicUrl.href;
  } catch {
    return 'http://localhost:3000/';
  }
}

/**
 * Whether If-None-Match names `etag` (RFC 9110 13.1.2: weak comparison, a list, or `*`). The tag is weak: the same
 * document is sent as it is or compressed (Content-Encoding), which a strong tag would have to tell apart.
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

export function registerOpenApiRoute(app: FastifyInstance, publicUrl?: URL): void {
  const text = JSON.stringify(openApiDocument({ publicUrl: publicUrlOf(publicUrl) }));
  const etag = `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  app.get('/v2/openapi.json', async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    return text;
  });
}
