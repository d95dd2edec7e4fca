/** GET /v2/openapi.json: the API's OpenAPI 3.1 document, public, built once. */
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './document';

export function registerOpenApiRoute(app: FastifyInstance): void {
  const text = JSON.stringify(openApiDocument());
  app.get('/v2/openapi.json', async (_request, reply) => {
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300');
    return text;
  });
}
