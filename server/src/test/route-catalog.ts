/**
 * Every route an app registers, with the JSON Schema of its body, query string and path parameters, and every
 * operation of its OpenAPI document: what a sweep over the whole HTTP surface walks. Routes are seen through
 * Fastify's public `fastify.initialization` diagnostics channel, which hands over each new instance before any
 * route is declared on it, and an `onRoute` hook added there.
 */
import { channel } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and OpenAPI are JSON of any shape
export type Json = Record<string, any>;
export type Part = 'body' | 'querystring' | 'params';

export interface CatalogRoute {
  method: string;
  /** Fastify's form: `/v2/keys/:id`. */
  url: string;
  schemas: Partial<Record<Part, Json>>;
  /** The body's media type when the route takes something other than JSON (a CSV or a multipart upload). */
  bodyType?: string;
  /** In the OpenAPI document. */
  documented: boolean;
}

/** Runs `build` while watching every Fastify instance it creates; returns what it built and the routes declared. */
export async function collectRoutes<T>(build: () => Promise<T>): Promise<{ built: T; routes: RouteOptions[] }> {
  const routes: RouteOptions[] = [];
  const initialization = channel('fastify.initialization');
  const watch = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => void routes.push(route));
  };
  initialization.subscribe(watch);
  try {
    return { built: await build(), routes };
  } finally {
    initialization.unsubscribe(watch);
  }
}

const jsonOf = (schema: unknown): Json | undefined => {
  if (schema instanceof z.ZodType) return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return schema && typeof schema === 'object' ? (schema as Json) : undefined;
};

/** OpenAPI's `/v2/keys/{id}` as Fastify writes it. */
const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * One entry per method and URL: the registered routes (HEAD ones, which Fastify adds beside each GET, left out),
 * with the OpenAPI document's query parameters and JSON body added where the route's own schema has none; an
 * undocumented route under an alias prefix (`/v1/identities/`) takes those of its documented twin.
 */
export function catalog(
  routes: RouteOptions[],
  document: Json,
  aliases: [from: string, to: string][] = [],
): CatalogRoute[] {
  const out = new Map<string, CatalogRoute>();
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      const schemas: CatalogRoute['schemas'] = {};
      for (const part of ['body', 'querystring', 'params'] as const) {
        const json = jsonOf(schema[part]);
        if (json) schemas[part] = json;
      }
      out.set(`${method} ${route.url}`, { method, url: route.url, schemas, documented: false });
    }
  }
  for (const [path, operations] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(operations as Json)) {
      if (!operation?.responses) continue;
      const key = `${method.toUpperCase()} ${fastifyPath(path)}`;
      const route = out.get(key);
      if (!route) throw new Error(`${key} is in the OpenAPI document but no route serves it`);
      route.documented = true;
      const query = ((operation.parameters ?? []) as Json[])
        .map((p) => (p.$ref ? resolve(document, p) : p))
        .filter((p) => p.in === 'query');
      if (!route.schemas.querystring && query.length > 0) {
        route.schemas.querystring = {
          type: 'object',
          properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? { type: 'string' }])),
          required: query.filter((p) => p.required).map((p) => p.name),
        };
      }
      const content = (operation.requestBody?.content ?? {}) as Json;
      if (content['application/json'] && !route.schemas.body) {
        route.schemas.body = inline(document, content['application/json'].schema);
      } else if (!content['application/json'] && Object.keys(content).length > 0) {
        route.bodyType = Object.keys(content).join(', ');
      }
    }
  }
  // Routes that answer exactly as a documented one does (/v1 lookups as /v2) take its parameters and body.
  for (const [from, to] of aliases) {
    for (const route of out.values()) {
      const twin = route.url.startsWith(from) && out.get(`${route.method} ${to}${route.url.slice(from.length)}`);
      if (twin && !route.documented) Object.assign(route, { schemas: twin.schemas, bodyType: twin.bodyType });
    }
  }
  return [...out.values()];
}

function resolve(document: Json, node: Json): Json {
  let at: Json = document;
  for (const step of String(node.$ref).replace(/^#\//, '').split('/')) at = at[step];
  return at;
}

/** The schema with every `$ref` into the document replaced by what it names (the document has no cycles there). */
function inline(document: Json, node: unknown): Json {
  if (Array.isArray(node)) return node.map((n) => inline(document, n)) as unknown as Json;
  if (!node || typeof node !== 'object') return node as Json;
  const object = node as Json;
  if (typeof object.$ref === 'string') return inline(document, resolve(document, object));
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, inline(document, v)]));
}
