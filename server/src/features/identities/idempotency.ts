/**
 * Idempotency-Key for POST and PUT lookups: the first request with a key runs and its reply is kept for 24 hours;
 * a repeat with the same request gets that reply back (header `Idempotent-Replayed: true`) without running or being
 * charged again; the same key with another request answers 422, and while the first still runs, 409. Keys belong to
 * the API key (or, for a console session, the user) that sent them. A failed first request keeps nothing, so it
 * can be retried with the same key.
 */
import { createHash, type Hash } from 'node:crypto';
import { IDEMPOTENCY, IDEMPOTENCY_MESSAGES, REQUEST_ID } from '@tessera/common/lookups';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { BadRequest, Conflict, Unprocessable } from '../../http/errors';
import type { LookupCaller } from './caller';

export interface Claim {
  owner: string;
  key: string;
}

/** A stored reply, sent again. */
interface Stored {
  request_hash: string | null;
  state: 'running' | 'done';
  status: number | null;
  content_type: string | null;
  content_disposition: string | null;
  body: Buffer | Uint8Array | null;
  too_large: boolean;
}

/** The request's hash: method, path, query and body (streamed bodies are fed to it as they are read). */
export function requestHasher(request: FastifyRequest): Hash {
  return createHash('sha256').update(`${request.method}\n${request.url}\n`);
}

/** A streamed body, fed to the hasher as it is read. */
export async function* hashing(body: AsyncIterable<Buffer>, hasher: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    hasher.update(chunk);
    yield chunk;
  }
}

/** A key past its 24 hours, or a first request that has run too long to be alive, is free again. */
const FREE_STALE = `delete from idempotency_keys where owner = $1 and key = $2
  and (created_at < now() - interval '${IDEMPOTENCY.keepHours} hours'
    or (state = 'running' and created_at < now() - interval '${IDEMPOTENCY.runningMinutes} minutes'))`;
const CLAIM = `insert into idempotency_keys (owner, key, request_hash, state) values ($1, $2, $3, 'running')
  on conflict (owner, key) do nothing returning key`;

const READ = `select request_hash, state, status, content_type, content_disposition, body, too_large
from idempotency_keys where owner = $1 and key = $2
  and created_at >= now() - interval '${IDEMPOTENCY.keepHours} hours'`;

export function createIdempotency(database: Database) {
  let sweptAt = 0;
  /** Now and then, forget keys past their 24 hours. */
  function sweep(): void {
    if (Date.now() - sweptAt < 60_000) return;
    sweptAt = Date.now();
    void database
      .query(`delete from idempotency_keys where created_at < now() - interval '${IDEMPOTENCY.keepHours} hours'`)
      .catch(() => {});
  }

  return {
    /** The key the request carries (validated), or null when it carries none. */
    keyOf(request: FastifyRequest, caller: LookupCaller): Claim | null {
      const raw = request.headers[IDEMPOTENCY.header];
      if (raw === undefined) return null;
      const key = Array.isArray(raw) ? '' : raw;
      if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
        throw new BadRequest(IDEMPOTENCY_MESSAGES.key, [
          { path: `headers.${IDEMPOTENCY.header}`, message: IDEMPOTENCY_MESSAGES.key },
        ]);
      }
      return { owner: caller.keyId ? `key:${caller.keyId}` : `user:${caller.userId}`, key };
    },

    /**
     * Claims the key for this request: true when it is the first (run it, then `finish` or `abandon`); false when
     * the stored reply has been sent; 409 or 422 otherwise. `hash` may be null for a body not read yet: then a
     * repeat is compared once its body is read (`replayIfSame`).
     */
    async claim(claim: Claim, hash: string | null, reply: FastifyReply): Promise<boolean> {
      sweep();
      await database.query(FREE_STALE, [claim.owner, claim.key]);
      const inserted = await database.query(CLAIM, [claim.owner, claim.key, hash]);
      if (inserted.length > 0) return true;
      const [stored] = await database.query<Stored>(READ, [claim.owner, claim.key]);
      if (!stored) return this.claim(claim, hash, reply); // it expired or was abandoned between the two statements
      if (stored.state === 'running') throw new Conflict(IDEMPOTENCY_MESSAGES.running);
      if (hash !== null && stored.request_hash !== hash) throw new Unprocessable(IDEMPOTENCY_MESSAGES.otherRequest);
      if (hash === null) return false; // the caller reads the body, then calls replayIfSame
      send(stored, reply);
      return false;
    },

    /** For a streamed repeat whose body has now been read: the stored reply, or 422 for another request. */
    async replayIfSame(claim: Claim, hash: string, reply: FastifyReply): Promise<void> {
      const [stored] = await database.query<Stored>(READ, [claim.owner, claim.key]);
      if (!stored || stored.state === 'running') throw new Conflict(IDEMPOTENCY_MESSAGES.running);
      if (stored.request_hash !== hash) throw new Unprocessable(IDEMPOTENCY_MESSAGES.otherRequest);
      send(stored, reply);
    },

    /** Keeps the reply of the first request (a reply too large is remembered as served, without its body). */
    async finish(
      claim: Claim,
      outcome: { hash: string; status: number; contentType: string; disposition?: string; body: Buffer | null },
    ): Promise<void> {
      const tooLarge = outcome.body === null || outcome.body.length > IDEMPOTENCY.maxStoredBytes;
      await database.query(
        `update idempotency_keys set state = 'done', request_hash = $3, status = $4, content_type = $5,
           content_disposition = $6, body = $7, too_large = $8, completed_at = now() where owner = $1 and key = $2`,
        [
          claim.owner,
          claim.key,
          outcome.hash,
          outcome.status,
          outcome.contentType,
          outcome.disposition ?? null,
          tooLarge ? null : outcome.body,
          tooLarge,
        ],
      );
    },

    /** The first request failed: nothing is kept, and the key may be used again. */
    async abandon(claim: Claim): Promise<void> {
      await database
        .query(`delete from idempotency_keys where owner = $1 and key = $2 and state = 'running'`, [
          claim.owner,
          claim.key,
        ])
        .catch(() => {});
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;

/**
 * The id of the request whose reply is kept: its JSON's leading `requestId`, or the one its CSV file is named by
 * (`{endpoint}-{requestId}.csv`). Null when neither says (the replay then keeps its own).
 */
export function keptRequestId(stored: Pick<Stored, 'body' | 'content_disposition'>): string | null {
  const head = Buffer.from(stored.body ?? Buffer.alloc(0))
    .subarray(0, REQUEST_ID.maxLength + 32)
    .toString('utf8');
  const id =
    /^\{"requestId":"([^"\\]+)"/.exec(head)?.[1] ??
    /filename="[A-Za-z0-9]+-(.+)\.csv"$/.exec(stored.content_disposition ?? '')?.[1];
  return id && REQUEST_ID.pattern.test(id) ? id : null;
}

/**
 * The kept reply, exactly: its body, and its X-Request-Id, the id in the body (issue 31 item 10), of the request that
 * was run and charged; this one's own id is in the access log.
 */
function send(stored: Stored, reply: FastifyReply): void {
  if (stored.too_large) throw new Conflict(IDEMPOTENCY_MESSAGES.tooLarge);
  reply.header('idempotent-replayed', 'true');
  const kept = keptRequestId(stored);
  if (kept) reply.header('x-request-id', kept);
  if (stored.content_disposition) reply.header('content-disposition', stored.content_disposition);
  reply
    .code(stored.status ?? 200)
    .type(stored.content_type ?? 'application/json; charset=utf-8')
    .send(Buffer.from(stored.body ?? Buffer.alloc(0)));
}
