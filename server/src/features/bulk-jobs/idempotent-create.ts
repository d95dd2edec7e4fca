/**
 * A streamed POST that makes something (a job, an upload) under the request's Idempotency-Key, as lookups take one
 * (identities/idempotency.ts): a retry, a balancer's or a client's, gets the first reply back and makes nothing again.
 * The body is hashed as it is read; a repeat's is read only to tell it from another request under the same key. A
 * refused first request keeps nothing, so its key may be used again.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LookupCaller } from '../identities/caller';
import { hashing, requestHasher } from '../identities/idempotency';
import type { LookupDeps } from '../identities/service';

export interface Made {
  status: number;
  answer: unknown;
  /** Headers of the first reply only (a replay sends the kept body and status). */
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export async function idempotentCreate(
  lookups: LookupDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: LookupCaller,
  received: AsyncIterable<Buffer>,
  make: (body: AsyncIterable<Buffer>) => Promise<Made>,
): Promise<unknown> {
  const claim = lookups.idempotency.keyOf(request, caller);
  const hasher = requestHasher(request);
  const body = hashing(received, hasher);
  if (claim && !(await lookups.idempotency.claim(claim, null, reply))) {
    for await (const _ of body);
    await lookups.idempotency.replayIfSame(claim, hasher.digest('hex'), reply);
    return reply;
  }
  try {
    const made = await make(body);
    if (claim) {
      // Made: a reply that could not be kept for replay is still answered, not failed.
      const kept = { hash: hasher.digest('hex'), status: made.status, contentType: JSON_TYPE };
      await lookups.idempotency
        .finish(claim, { ...kept, body: Buffer.from(JSON.stringify(made.answer)) })
        .catch(async (error: unknown) => {
          request.log.warn({ err: error }, 'an idempotent reply could not be kept');
          await lookups.idempotency.abandon(claim);
        });
    }
    reply.code(made.status).headers(made.headers ?? {});
    return made.answer;
  } catch (error) {
    if (claim) await lookups.idempotency.abandon(claim);
    throw error;
  }
}
