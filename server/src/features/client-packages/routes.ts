/**
 * The client libraries' packages (issue 17), as scripts/build-clients.mjs leaves them in CLIENTS_DIR: their list at
 * GET /v2/clients and each file (and its README) at GET /clients/{file}, both public. Only a file the list names is served, so no
 * path reaches anything else. The list is read on each call: a rebuild is offered without a restart.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLIENT_LANGUAGES, type ClientPackage } from '@tessera/common/client-packages';
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../../http/errors';

const TYPES: Record<string, string> = {
  '.tgz': 'application/gzip',
  '.whl': 'application/zip',
  '.jar': 'application/java-archive',
  '.md': 'text/markdown; charset=utf-8',
};

/** The packages listed in the folder's index.json; none when it is missing or unreadable. */
export async function listClientPackages(dir: string): Promise<ClientPackage[]> {
  try {
    const index = JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8')) as { packages?: ClientPackage[] };
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
    const listed = (await listClientPackages(deps.dir)).flatMap((p) => [p.file, p.readme]);
    if (!listed.includes(file) || path.basename(file) !== file) {
      throw new NotFound(`There is no client package named ${file}.`);
    }
    // A README is read in the browser; a package is saved.
    const readme = file.endsWith('.md');
    reply
      .type(TYPES[path.extname(file)] ?? 'application/octet-stream')
      .header('content-disposition', `${readme ? 'inline' : 'attachment'}; filename="${file}"`)
      .header('cache-control', 'no-cache');
    return reply.send(createReadStream(path.join(deps.dir, file)));
  });
}
