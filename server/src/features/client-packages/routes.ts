/**
 * The client libraries' packages (issue 17), as scripts/build-clients.mjs leaves them in CLIENTS_DIR: their list at
 * GET /v2/clients and each file (its README, and the Java jar's POM, sources and javadoc) at GET /clients/{file}, both
 * public. Only a file the list names is served, so no path reaches anything else. The list is read on each call: a
 * rebuild is offered without a restart.
 *
 * A README is served with README_ORIGIN replaced by the origin the request came to, as the Client Libraries page
 * shows `window.location.origin`: its install commands then fetch from this server, as written (issue 31). Every
 * file carries an ETag of the bytes served, and a GET whose If-None-Match names it is answered 304.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLIENT_LANGUAGES, type ClientPackage } from '@tessera/common/client-packages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFound } from '../../http/errors';

const TYPES: Record<string, string> = {
  '.tgz': 'application/gzip',
  '.whl': 'application/zip',
  '.jar': 'application/java-archive',
  '.md': 'text/markdown; charset=utf-8',
  '.pom': 'application/xml; charset=utf-8',
};

/** What a README (clients/{js,python,java}/README.md) writes for "your Tessera server"; replaced when served. */
export const README_ORIGIN = 'https://tessera.example.com';

/** A listed package as index.json has it: `files` are further files served beside it (the jar's POM, ...). */
type ListedPackage = ClientPackage & { files?: string[] };

/** A host name or address with an optional port: nothing that could break out of a command or a Markdown line. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The origin the request was made to (behind a trusted proxy, the one it forwarded), or null when not a plain one. */
export function requestOrigin(request: FastifyRequest): string | null {
  const host = request.host;
  return HOST.test(host) ? `${request.protocol}://${host}` : null;
}

/**
 * A weak validator of the bytes: the compression plugin may send a README or a POM encoded, and a weak ETag is
 * the one that may stand for every encoding of the same bytes (If-None-Match compares weakly).
 */
const etagOf = (bytes: Buffer) => `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;

/** Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 13.1.2), or is `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/** The packages listed in the folder's index.json; none when it is missing or unreadable. */
export async function listClientPackages(dir: string): Promise<ListedPackage[]> {
  try {
    const index = JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8')) as { packages?: ListedPackage[] };
    return (index.packages ?? []).filter((p) => (CLIENT_LANGUAGES as readonly string[]).includes(p.language));
  } catch {
    return [];
  }
}

export function registerClientPackageRoutes(app: FastifyInstance, deps: { dir: string }): void {
  app.get('/v2/clients', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return { clientPackages: await listClientPackages(deps.dir) };
  });

  app.get<{ Params: { file: string } }>('/clients/:file', async (request, reply) => {
    const { file } = request.params;
    const listed = (await listClientPackages(deps.dir)).flatMap((p) => [p.file, p.readme, ...(p.files ?? [])]);
    if (!listed.includes(file) || path.basename(file) !== file) {
      throw new NotFound(`There is no client package named ${file}.`);
    }
    // A README is read in the browser, with this server's address in its commands; a package is saved as built.
    const readme = file.endsWith('.md');
    let bytes = await readFile(path.join(deps.dir, file));
    const origin = readme ? requestOrigin(request) : null;
    if (origin) bytes = Buffer.from(bytes.toString('utf8').replaceAll(README_ORIGIN, origin));
    const etag = etagOf(bytes);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    reply
      .type(TYPES[path.extname(file)] ?? 'application/octet-stream')
      .header('content-disposition', `${readme ? 'inline' : 'attachment'}; filename="${file}"`);
    return reply.send(bytes);
  });
}
