/**
 * GET /v2/ssh/authorized_keys?group={name}&user={login}: what OpenSSH's AuthorizedKeysCommand prints for `%u`,
 * asked by a host of the group with the group's token (Authorization: Bearer). One authorized_keys line per live
 * grant of the group to that login, each with an expiry-time option, so a host that caches the answer still stops
 * letting the key in when its grant ends.
 */
import { SSH_MESSAGES } from '@tessera/common/ssh';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { Unauthorized } from '../../http/errors';
import { bearerToken, tokenMatches } from './host-tokens';
import { authorizedKeys, groupByName } from './repo';
import { authorizedKeysQuery } from './schemas';

/** `YYYYMMDDHHMMSSZ`: OpenSSH reads a time with a Z suffix as UTC, whatever the host's time zone. */
export function expiryTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`;
}

export function registerAuthorizedKeysRoute(app: FastifyInstance, deps: { database: Database }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;

  r.get('/v2/ssh/authorized_keys', { schema: { querystring: authorizedKeysQuery } }, async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new Unauthorized(SSH_MESSAGES.tokenMissing);
    const group = await groupByName(database.db, request.query.group);
    // An unknown group and a wrong token answer alike: the answer tells no one which groups exist.
    if (!group || !tokenMatches(token, group.tokenSha256)) throw new Unauthorized(SSH_MESSAGES.tokenWrong);
    const rows = await authorizedKeys(database.db, group.id, request.query.user, new Date());
    const lines = rows.map(
      (row) => `expiry-time="${expiryTime(row.expiresAt)}" ${row.publicKey} tessera-grant-${row.grantId}\n`,
    );
    reply.type('text/plain; charset=utf-8');
    return lines.join('');
  });
}
