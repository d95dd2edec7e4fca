/**
 * /v2/ssh/keys and /v2/ssh/certificates: staff (super+) register their own public keys and get certificates for
 * them under a live grant; root sees and acts on everyone's. Another's key is 404 to super, like a missing one.
 */
import { SSH_MESSAGES, type SshKey } from '@tessera/common/ssh';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sshpk from 'sshpk';
import type { Database, Executor } from '../../db/client';
import { BadRequest, Conflict, NotFound } from '../../http/errors';
import { deleted, keyed } from '../../http/keyed';
import { auditSsh, isRoot, rootOnly, staffOnly } from './access';
import type { SshCa } from './ca';
import { KeyRefused, parsePublicKey } from './public-key';
import {
  deleteKey,
  findGrant,
  findKey,
  grantView,
  insertCertificate,
  insertKey,
  keyByFingerprint,
  listKeys,
} from './repo';
import { certificateBody, idParams, keyBody } from './schemas';

export interface SshRouteDeps {
  database: Database;
  ca: SshCa;
}

/** Minutes a certificate is valid before it was issued, for hosts whose clocks run a little behind. */
export const CERTIFICATE_BACKDATE_MS = 5 * 60_000;

async function ownKey(db: Executor, request: FastifyRequest, id: number): Promise<SshKey> {
  const key = await findKey(db, id);
  if (!key || (key.userId !== request.user.id && !isRoot(request))) throw new NotFound(SSH_MESSAGES.keyNotFound);
  return key;
}

function parse(text: string) {
  try {
    return parsePublicKey(text);
  } catch (error) {
    if (!(error instanceof KeyRefused)) throw error;
    throw new BadRequest(error.message, [{ path: 'body.publicKey', message: error.message }]);
  }
}

export function registerSshKeyRoutes(app: FastifyInstance, deps: SshRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, ca } = deps;

  r.get('/v2/ssh/keys', { preHandler: staffOnly }, async (request) => ({
    sshKeys: keyed(await listKeys(database.db, isRoot(request) ? null : request.user.id)),
  }));

  r.get('/v2/ssh/keys/:id', { preHandler: staffOnly, schema: { params: idParams } }, async (request) => ({
    sshKeys: keyed([await ownKey(database.db, request, request.params.id)]),
  }));

  r.post('/v2/ssh/keys', { preHandler: staffOnly, schema: { body: keyBody } }, async (request, reply) => {
    const parsed = parse(request.body.publicKey);
    const name = (request.body.name || parsed.comment || `${parsed.type} ${parsed.fingerprint}`).slice(0, 100);
    const key = await database.transaction(async (tx) => {
      if (await keyByFingerprint(tx, parsed.fingerprint)) throw new Conflict(SSH_MESSAGES.duplicate);
      const id = await insertKey(tx, {
        userId: request.user.id,
        name,
        type: parsed.type,
        bits: parsed.bits,
        fingerprint: parsed.fingerprint,
        publicKey: parsed.publicKey,
      });
      await auditSsh(tx, request, 'ssh.key.create', { type: 'ssh-key', id }, { fingerprint: parsed.fingerprint });
      return (await findKey(tx, id))!;
    });
    reply.code(201);
    return { sshKeys: keyed([key]) };
  });

  r.delete('/v2/ssh/keys/:id', { preHandler: staffOnly, schema: { params: idParams } }, async (request) => {
    const at = new Date();
    const revoked = await database.transaction(async (tx) => {
      const key = await ownKey(tx, request, request.params.id);
      const grants = await deleteKey(tx, key.id, request.user.id, at);
      await auditSsh(tx, request, 'ssh.key.delete', { type: 'ssh-key', id: key.id }, { revokedGrants: grants });
      return grants;
    });
    const sshGrants = Object.fromEntries(revoked.map((id) => [id, { id, revokedAt: at.toISOString() }]));
    return { sshKeys: deleted(request.params.id, at), sshGrants };
  });

  r.post(
    '/v2/ssh/certificates',
    { preHandler: staffOnly, schema: { body: certificateBody } },
    async (request, reply) => {
      const { keyId, grantId, hours } = request.body;
      const sign = await ca.signer();
      const certificate = await database.transaction(async (tx) => {
        const key = await ownKey(tx, request, keyId);
        const row = await findGrant(tx, grantId);
        if (!row) throw new NotFound(SSH_MESSAGES.grantNotFound);
        const grant = grantView(row);
        if (grant.keyId !== key.id)
          throw new BadRequest(SSH_MESSAGES.grantOtherKey, [
            { path: 'body.grantId', message: SSH_MESSAGES.grantOtherKey },
          ]);
        const now = Date.now();
        if (row.revokedAt || row.expiresAt.getTime() <= now) throw new Conflict(SSH_MESSAGES.grantNotLive);
        const validAfter = new Date(now - CERTIFICATE_BACKDATE_MS);
        const validBefore = new Date(Math.min(now + hours * 3_600_000, row.expiresAt.getTime()));
        const serial = await insertCertificate(tx, {
          keyId: key.id,
          grantId: grant.id,
          principal: grant.principal,
          validAfter,
          validBefore,
          issuedBy: request.user.id,
        });
        const text = sign({
          subject: sshpk.parseKey(key.publicKey, 'ssh'),
          principal: grant.principal,
          validAfter,
          validBefore,
          serial,
          keyId: `tessera-cert-${serial}-key-${key.id}`,
        });
        await auditSsh(
          tx,
          request,
          'ssh.certificate.issue',
          { type: 'ssh-certificate', id: serial },
          {
            keyId: key.id,
            grantId: grant.id,
            principal: grant.principal,
            validBefore: validBefore.toISOString(),
          },
        );
        return {
          id: serial,
          keyId: key.id,
          grantId: grant.id,
          principal: grant.principal,
          validAfter: validAfter.toISOString(),
          validBefore: validBefore.toISOString(),
          certificate: text,
        };
      });
      reply.code(201);
      return { sshCertificates: keyed([certificate]) };
    },
  );

  r.get('/v2/ssh/ca', { preHandler: rootOnly }, async () => ({
    sshCa: { publicKey: await ca.publicKey(), fingerprint: await ca.fingerprint() },
  }));
}
