/**
 * A lookup call from start to end, whichever method brought it: who calls, which template, the search and its
 * scores, the identities shaped, and the usage recorded before the answer goes out.
 */
import { createHash } from 'node:crypto';
import { TEST_KEY_RATE_LIMIT } from '@tessera/common/keys';
import { LOOKUP_LIMITS, type LookupEndpoint, RATE_MESSAGES, RATE_WINDOW_MS } from '@tessera/common/lookups';
import type { Purpose } from '@tessera/common/purposes';
import type { CallMetrics } from '@tessera/common/usage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { databaseFault } from '../../db/faults';
import { BadRequest, NotFound, TooManyRequests, Unavailable, Unprocessable } from '../../http/errors';
import { lookupCalls, lookupInputs } from '../../observability/metrics';
import type { Billing, Terms } from '../contracts/billing';
import { costMicros } from '../contracts/pricing';
import { type AuditedInput, auditedInputs } from '../lookup-audit/entries';
import type { ValueHasher } from '../lookup-audit/hmac';
import type { SandboxGraph } from '../sandbox-graph/register';
import type { MatchModel } from '../scoring/model';
import { TemplateError } from '../templates/evaluate';
import {
  DEFAULT_TEMPLATE_ID,
  deletedTemplate,
  type ResolvedTemplate,
  TEMPLATE_MESSAGES,
  type TemplateStore,
} from '../templates/store';
import type { RateDecision, SlidingLimiter } from '../throttle/sliding';
import { type Metering, RequestIdReused, recordResolving, USAGE_RESOLVE_MS } from '../usage/metering';
import { authenticate, type LookupAuthenticator, type LookupCaller } from './caller';
import { type LookupOptions, type Match, runLookup } from './engine';
import type { Idempotency } from './idempotency';
import type { LookupInput } from './inputs';
import { countResults } from './metrics';
import type { LookupOptionsInput } from './options';
import { admitPurpose } from './purpose';
import { visibleTypes } from './record-sql';
import { createShaper, type Shaper } from './shape';

export interface LookupDeps {
  database: Database;
  /** What test keys read instead of the identity graph (issue 31). */
  sandbox: SandboxGraph;
  metering: Metering;
  billing: Billing;
  rates: SlidingLimiter;
  idempotency: Idempotency;
  templates: TemplateStore;
  authenticators: readonly LookupAuthenticator[];
  model: MatchModel;
  /** The lookup audit trail's keyed hash (issue 22). */
  auditHasher: () => Promise<ValueHasher>;
  /** A streamed PUT with nothing read or sent this long is ended (STREAM_IDLE_SECONDS). */
  streamIdleMs?: number;
}

/** A metered call's cost and what is left of the month's allowance (micro-dollars), for its reply's headers. */
export interface CallCharge {
  costMicros: number;
  allowanceLeftMicros: number | null;
}
const charges = new WeakMap<FastifyRequest, CallCharge>();
/** The charge meter() recorded for this request, if it metered one. */
export const chargeOf = (request: FastifyRequest): CallCharge | undefined => charges.get(request);

export const USAGE_UNAVAILABLE = 'Usage could not be recorded, so the call was not answered or charged. Please retry.';

/**
 * A caller whose organization may call, with the terms the call is priced by (null: at nothing) and the permissible
 * purpose it is made for (issue 34; null: none named, and none required).
 */
export type Admitted = LookupCaller & { terms: Terms | null; purpose: Purpose | null };

/** One call's settings, fixed before any input is searched. */
export interface Prepared {
  caller: Admitted;
  template: ResolvedTemplate;
  engine: LookupOptions;
  explain: boolean;
  shaper(): Shaper;
}

/**
 * Who calls, whether their organization may (402 otherwise) and for which permissible purpose (400, 403; purpose.ts),
 * before anything of the request is read: an unknown or unpaid caller learns nothing about its input. Every lookup
 * comes this way; what is not a lookup (a subscription, an upload) says `{ purpose: false }` and names none.
 */
export async function identify(
  deps: LookupDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { purpose?: boolean } = {},
): Promise<Admitted> {
  const caller = await authenticate(request, deps.authenticators);
  // A test key is free: no contract is asked for, and nothing is priced or charged (meter).
  const terms = caller.mode === 'test' ? null : await deps.billing.admit(caller);
  const purpose = options.purpose === false ? null : admitPurpose(request, caller, terms);
  const admitted = { ...caller, terms, purpose };
  await limitRate(deps, admitted, reply);
  return admitted;
}

/**
 * The limits that apply (RateLimit-Policy) and the state of the tighter one (RateLimit), as the IETF httpapi draft
 * writes them; and the same as RateLimit-Limit, -Remaining and -Reset for clients of its earlier revisions. On a 429
 * the reset is when a retry will be served, equal to Retry-After.
 */
function rateHeaders(reply: FastifyReply, policies: string[], name: string, d: RateDecision): void {
  reply.header('ratelimit-policy', policies.join(', '));
  reply.header('ratelimit', `"${name}";r=${d.remaining};t=${d.reset}`);
  reply.header('ratelimit-limit', String(d.limit));
  reply.header('ratelimit-remaining', String(d.remaining));
  reply.header('ratelimit-reset', String(d.reset));
}

/**
 * The key's limit, then the organization's (the contract's), each requests a minute in a sliding window: 429 with
 * Retry-After past either; the RateLimit headers tell the tighter one.
 */
async function limitRate(deps: LookupDeps, caller: Admitted, reply: FastifyReply): Promise<void> {
  const checks: {
    name: 'key' | 'organization';
    key: string;
    limit: number;
    message: (limit: number, seconds: number) => string;
  }[] = [];
  if (caller.mode === 'test') {
    // The sandbox's own limit (or the key's, when lower); a test key never spends its organization's live allowance.
    const limit = Math.min(caller.rateLimit ?? TEST_KEY_RATE_LIMIT, TEST_KEY_RATE_LIMIT);
    checks.push({ name: 'key', key: `key:${caller.keyId}`, limit, message: RATE_MESSAGES.key });
  } else if (caller.keyId && caller.rateLimit) {
    checks.push({ name: 'key', key: `key:${caller.keyId}`, limit: caller.rateLimit, message: RATE_MESSAGES.key });
  }
  if (caller.mode === 'live' && caller.organizationId !== null && caller.terms?.rateLimit) {
    checks.push({
      name: 'organization',
      key: `organization:${caller.organizationId}`,
      limit: caller.terms.rateLimit,
      message: RATE_MESSAGES.organization,
    });
  }
  const policies = checks.map((c) => `"${c.name}";q=${c.limit};w=${RATE_WINDOW_MS / 1000}`);
  let tightest: { name: string; decision: RateDecision } | null = null;
  for (const check of checks) {
    const decision = await deps.rates.hit(check.key, check.limit, RATE_WINDOW_MS);
    if (!decision.allowed) {
      rateHeaders(reply, policies, check.name, decision);
      throw new TooManyRequests(check.message(check.limit, decision.retryAfter), decision.retryAfter);
    }
    // The tighter limit: fewer calls left, or as few left and a later reset (the second a call is served again).
    if (
      !tightest ||
      decision.remaining < tightest.decision.remaining ||
      (decision.remaining === tightest.decision.remaining && decision.reset > tightest.decision.reset)
    ) {
      tightest = { name: check.name, decision };
    }
  }
  if (tightest) rateHeaders(reply, policies, tightest.name, tightest.decision);
}

export async function prepare(deps: LookupDeps, caller: Admitted, options: LookupOptionsInput): Promise<Prepared> {
  const templateId = options.template ?? DEFAULT_TEMPLATE_ID;
  let template: ResolvedTemplate | null;
  try {
    template = await deps.templates.resolve(templateId, caller);
  } catch (error) {
    if (error instanceof TemplateError) throw new Unprocessable(error.message);
    throw error;
  }
  if (!template) {
    const gone = await deletedTemplate(deps.database, templateId, caller);
    if (gone) throw new NotFound(TEMPLATE_MESSAGES.deleted(gone));
    const message = TEMPLATE_MESSAGES.unknown(templateId);
    throw new BadRequest(message, [{ path: 'template', message }]);
  }
  const explain = options.explain ?? false;
  const resolved = template;
  return {
    caller,
    template,
    explain,
    engine: {
      types: visibleTypes(caller.allowedRecordTypes),
      minScore: options.minScore ?? null,
      limit: options.limit ?? LOOKUP_LIMITS.defaultLimit,
      model: deps.model,
      today: new Date(),
    },
    shaper: () => createShaper(resolved, explain),
  };
}

/**
 * A template that failed on real records: a 422 whose very existence depends on the records (issue 28, finding 1), so
 * the call is metered and audited as served before it is answered (`meterFailure`). `matches` are what it was given.
 */
export class TemplateFailure extends Unprocessable {
  constructor(
    message: string,
    readonly matches: Match[][],
  ) {
    super(message);
  }
}

/** Every input's identities, shaped by the template; a template failure is the caller's: 422 (TemplateFailure). */
export async function lookupAndShape(
  deps: LookupDeps,
  prepared: Prepared,
  inputs: LookupInput[],
): Promise<{ matches: Match[][]; shaped: Record<string, unknown>[][] }> {
  const graph = prepared.caller.mode === 'test' ? await deps.sandbox.database() : deps.database;
  const matches = await runLookup(graph, inputs, prepared.engine);
  try {
    // One shaper per call (per batch of a stream): its time and size allowance is the call's.
    return { matches, shaped: await prepared.shaper().shapeAll(matches) };
  } catch (error) {
    if (error instanceof TemplateError) throw new TemplateFailure(error.message, matches);
    throw error;
  }
}

/**
 * lookupAndShape for a call answered whole: when the template fails on the records found, the call is metered and
 * audited as served, with status 422, before the failure is answered (what a failure tells is the records', so it is
 * paid for and on the trail like any answer); a 503 instead when that usage cannot be kept.
 */
export async function lookupAndShapeMetered(
  deps: LookupDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  call: { prepared: Prepared; endpoint: LookupEndpoint; inputs: LookupInput[]; path?: string },
): Promise<{ matches: Match[][]; shaped: Record<string, unknown>[][] }> {
  try {
    return await lookupAndShape(deps, call.prepared, call.inputs);
  } catch (error) {
    if (!(error instanceof TemplateFailure)) throw error;
    const metrics = countResults(error.matches);
    metrics.milliseconds = Math.round(reply.elapsedTime);
    const lookups = await auditOf(deps, call.inputs, error.matches);
    await meter(deps, request, {
      caller: call.prepared.caller,
      endpoint: call.endpoint,
      path: call.path,
      metrics,
      status: 422,
      lookups,
    });
    throw error;
  }
}

/** A parsed JSON body (not a stream being read). */
const isPlain = (body: unknown) =>
  Array.isArray(body) || (!!body && typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype);

/**
 * What was asked and by whom, for telling a retry (same request id, same fingerprint: billed once) from another
 * request sent under a used id (decision 0046). A streamed body's digest is given; a parsed one is hashed here.
 */
export function fingerprint(request: FastifyRequest, caller: LookupCaller, bodyDigest?: string): string {
  const hash = createHash('sha256').update(
    `${request.method}\n${request.url}\n${caller.userId}\n${caller.keyId ?? ''}\n`,
  );
  if (bodyDigest !== undefined) hash.update(bodyDigest);
  else if (isPlain(request.body)) hash.update(JSON.stringify(request.body));
  return hash.digest('hex');
}

/**
 * The fingerprint as stored: keyed with the lookup audit trail's secret (HMAC), since a URL holds the e-mail or phone
 * looked up, and a plain hash of it could be checked against guesses by anyone who reads the usage table.
 */
export async function keyedFingerprint(
  deps: Pick<LookupDeps, 'auditHasher'>,
  request: FastifyRequest,
  caller: LookupCaller,
  bodyDigest?: string,
): Promise<string> {
  return (await deps.auditHasher())('request', fingerprint(request, caller, bodyDigest));
}

/**
 * Records the call's usage (its milliseconds already set); when that fails the call must not be answered as served.
 * A request id metered already for another request fails with RequestIdReused (409), so it is not answered free.
 */
export async function meter(
  deps: LookupDeps,
  request: FastifyRequest,
  call: {
    caller: Admitted;
    endpoint: LookupEndpoint;
    /** The usage row's path when the call is not the endpoint's own (a template preview, issue 32). */
    path?: string;
    metrics: CallMetrics;
    status?: number;
    lookups?: AuditedInput[];
    /** A streamed body's digest (the fingerprint's body part). */
    bodyDigest?: string;
    /** Meter under this id rather than the request's (a stream already answered under a reused id). */
    requestId?: string;
    /** How long a write that failed for the database being away is retried (USAGE_RESOLVE_MS by default). */
    resolveMs?: number;
  },
): Promise<void> {
  const { caller } = call;
  // The sandbox is free and unmetered: no usage row, no charge, no audit trail (its people are nobody's).
  if (caller.mode === 'test') {
    charges.set(request, { costMicros: 0, allowanceLeftMicros: null });
    return;
  }
  const cost = caller.terms ? costMicros(caller.terms, call.metrics) : 0;
  try {
    await recordResolving(
      deps.metering,
      {
        requestId: call.requestId ?? String(request.id),
        requestHash: await keyedFingerprint(deps, request, caller, call.bodyDigest),
        userId: call.caller.userId,
        organizationId: call.caller.organizationId,
        keyId: call.caller.keyId,
        method: request.method,
        path: call.path ?? `/${call.endpoint}`,
        status: call.status ?? 200,
        metrics: call.metrics,
        costMicros: cost,
        lookups: call.lookups,
        purpose: caller.purpose,
      },
      Date.now() + (call.resolveMs ?? USAGE_RESOLVE_MS),
    );
    deps.billing.charged(caller.organizationId, cost, caller.terms);
    charges.set(request, { costMicros: cost, allowanceLeftMicros: deps.billing.allowanceLeft(caller.terms) });
    const status = call.status ?? 200;
    lookupCalls.inc({ endpoint: call.endpoint, status });
    const matched = call.metrics.inputsWithIdentities;
    if (matched > 0) lookupInputs.inc({ endpoint: call.endpoint, matched: 'true' }, matched);
    const unmatched = call.metrics.inputs - matched;
    if (unmatched > 0) lookupInputs.inc({ endpoint: call.endpoint, matched: 'false' }, unmatched);
  } catch (error) {
    if (error instanceof RequestIdReused) throw error;
    // A database away is logged once per burst by the error handler; anything else is worth its stack here.
    if (!databaseFault(error)) request.log.error({ err: error }, 'usage could not be recorded');
    throw new Unavailable(USAGE_UNAVAILABLE, error);
  }
}

/** The audit trail's rows for these inputs and what each found (issue 22), to travel with the call's usage. */
export async function auditOf(
  deps: Pick<LookupDeps, 'auditHasher'>,
  inputs: LookupInput[],
  matches: Match[][],
  firstIndex = 0,
): Promise<AuditedInput[]> {
  return auditedInputs(await deps.auditHasher(), inputs, matches, firstIndex);
}
