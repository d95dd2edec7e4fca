/** GET /v2/openapi.json: the API's OpenAPI 3.1 document, public, built once, its server this deployment's PUBLIC_URL. */
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

export function registerOpenApiRoute(app: FastifyInstance, publicUrl?: URL): void {
  const text = JSON.stringify(openApiDocument({ publicUrl: publicUrlOf(publicUrl) }));
  app.get('/v2/openapi.json', async (_request, reply) => {
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300');
    return text;
  });
}
