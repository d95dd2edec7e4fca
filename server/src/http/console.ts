/**
 * Serves the built console: hashed assets cached for a year (optionally from CDN_HOST), and index.html,
 * never cached, for every non-API path so client routes survive a reload. Unknown API paths answer 404 JSON.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { isApiPath } from '@tessera/common/routes';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler';
import type { AllowedMethods } from './methods';

export interface ConsoleOptions {
  staticDir: string;
  assetPrefix: string;
  ciHost: string | null;
  /** The version browsers are told now (a deployment to the serving environment changes it, issue 21). */
  version: () => string;
  /** The methods a path takes (methods.ts): a path that exists under other methods answers 405, not 404. */
  allowedMethods?: AllowedMethods;
}

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Rewrites the build's relative asset references to absolute ones and adds the runtime configuration. */
export function renderIndex(html: string, options: Omit<ConsoleOptions, 'version'> & { version: string }): string {
  const config = JSON.stringify({ ciHost: options.ciHost, version: options.version });
  return html
    .replace(/(src|href)="\.\/assets\//g, `$1="${options.assetPrefix}/assets/`)
    .replace(/(src|href)="\.\//g, '$1="/')
    .replace('</head>', `<meta name="tessera-config" content='${escapeAttribute(config)}'>\n</head>`);
}

function contentSecurityPolicy(assetPrefix: string): string {
  const assets = assetPrefix ? ` ${new URL(assetPrefix).origin}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${assets}`,
    // Emotion (MUI) injects style elements at run time.
    `style-src 'self' 'unsafe-inline'${assets}`,
    `font-src 'self' data:${assets}`,
    "img-src 'self' data: blob: https:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

export const methodNotAllowed = (method: string, pathname: string, allow: string[]) =>
  `${method} is not supported on ${pathname}; it takes ${allow.join(', ')}.`;

/** A missing file at the top level (/favicon.ico, /robots.txt): client routes never have a dot there. */
const ROOT_FILE = /^\/[^/]+\.[a-z0-9]{1,8}$/i;

export async function registerConsole(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  const indexPath = path.join(options.staticDir, 'index.html');
  const built = existsSync(indexPath);
  const html = built ? readFileSync(indexPath, 'utf8') : null;
  // Rendered again only when the told version changes.
  let rendered: { version: string; page: string } | null = null;
  const index = (): string => {
    if (!html)
      return '<!doctype html><title>Tessera</title><p>The console has not been built. Run <code>npm run build</code>.</p>';
    const version = options.version();
    if (rendered?.version !== version) rendered = { version, page: renderIndex(html, { ...options, version }) };
    return rendered.page;
  };
  const csp = contentSecurityPolicy(options.assetPrefix);

  if (built) {
    await app.register(fastifyStatic, {
      root: options.staticDir,
      prefix: '/',
      index: false,
      wildcard: false,
      // The build writes .br and .gz beside each hashed asset (web/vite.config.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
        reply.header('x-content-type-options', 'nosniff');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // A program, not a browser: it sent credentials, or asked for JSON rather than a page.
    const accept = request.headers.accept ?? '';
    const program = Boolean(request.headers.authorization) || (accept.includes('json') && !accept.includes('html'));
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !program;
    const allow = options.allowedMethods?.(pathname) ?? [];
    if (allow.length > 0 && (isApiPath(pathname) || !wantsPage)) {
      reply.header('allow', allow.join(', '));
      return sendError(reply, 405, 'method_not_allowed', methodNotAllowed(request.method, pathname, allow));
    }
    if (isApiPath(pathname) || !wantsPage) {
      return sendError(reply, 404, 'not_found', `No such endpoint: ${request.method} ${pathname}`);
    }
    if (pathname.startsWith('/assets/') || ROOT_FILE.test(pathname)) {
      return sendError(reply, 404, 'not_found', `No such file: ${pathname}`);
    }
    return reply
      .code(built ? 200 : 503)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'same-origin',
      })
      .send(index());
  });
}
