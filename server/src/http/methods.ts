/**
 * Which methods a path takes (issue 31 item 10): every route is noted as it is declared, so the not-found handler
 * (console.ts) can answer a path that exists under other methods 405 with `Allow` (RFC 9110 15.5.6) instead of 404.
 * Paths match as Fastify's router matches them: `:name` is one segment (or part of one), `*` the rest of the path.
 * The lookups answer their own other methods (identities/routes.ts), so never reach this.
 */
import type { FastifyInstance } from 'fastify';

/** The order `Allow` lists methods in. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface Pattern {
  url: string;
  match: RegExp;
  methods: Set<string>;
}

/** A route's URL as a regular expression over a request's path (undecoded, as the router sees it). */
export function patternOf(url: string): RegExp {
  let source = '';
  for (let i = 0; i < url.length; ) {
    const char = url[i]!;
    if (char === '*') {
      source += '.*';
      i += 1;
    } else if (char === ':' && url[i + 1] !== ':') {
      // A parameter runs to the next `/`, `-` or `.`; a regular expression after it (`:id(^\d+$)`) is not used here.
      const end = url.slice(i + 1).search(/[/\-.(]/);
      i = end < 0 ? url.length : i + 1 + end;
      if (url[i] === '(') i = url.indexOf(')', i) + 1 || url.length;
      source += '[^/]+?';
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); // `::` is a literal colon
      i += char === ':' ? 2 : 1;
    }
  }
  return new RegExp(`^${source}$`);
}

export type AllowedMethods = (pathname: string) => string[];

/** Notes every route declared from now on; the function returned gives a path's methods (none: no such path). */
export function registerRouteMethods(app: FastifyInstance): AllowedMethods {
  const patterns = new Map<string, Pattern>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let pattern = patterns.get(route.url);
    if (!pattern) {
      pattern = { url: route.url, match: patternOf(route.url), methods: new Set() };
      patterns.set(route.url, pattern);
    }
    for (const method of methods) pattern.methods.add(method.toUpperCase());
  });
  return (pathname) => {
    const methods = new Set<string>();
    for (const pattern of patterns.values()) {
      if (pattern.match.test(pathname)) for (const method of pattern.methods) methods.add(method);
    }
    // HEAD is listed only where it is served: Fastify declares it beside each GET (exposeHeadRoute), and onRoute
    // notes it then; a GET declared without it (the OAuth starts) answers a HEAD 405.
    return ORDER.filter((m) => methods.has(m)).concat([...methods].filter((m) => !ORDER.includes(m)).sort());
  };
}
