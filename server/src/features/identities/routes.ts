/**
 * The lookup API (issue 4): GET, POST and PUT on /v2/identities/{byAny, byDevice, byEmail, byId, byIp, byMd5,
 * byPhone, byPii, bySha256, byVehicle}. GET looks up one input given in the query string, POST up to 1,000 given
 * as `inputs`, PUT any number given as CSV rows (streamed back with the template's columns appended).
 */
import { LOOKUP_ENDPOINT_NAMES, LOOKUP_ENDPOINTS, LOOKUP_LIMITS, type LookupEndpoint } from '@tessera/common/lookups';
import { PURPOSE_PARAMETER } from '@tessera/common/purposes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from '../../http/error-handler';
import { csvLine, flatten, headerLine, metadataCells, sampleColumns, unionColumns } from './csv-output';
import { streamCsvLookup } from './csv-stream';
import { drainOf } from './drain';
import { requestHasher } from './idempotency';
import { type LookupInput, METADATA, parseInput, parseInputs } from './inputs';
import { countResults } from './metrics';
import { invalid, OPTION_NAMES, parseOptions, wantsCsv } from './options';
import {
  auditOf,
  chargeOf,
  identify,
  type LookupDeps,
  lookupAndShapeMetered,
  meter,
  type Prepared,
  prepare,
} from './service';

/** Micro-dollars as the charge headers write them: dollars with six decimals. */
const dollars = (micros: number) => (micros / 1e6).toFixed(6);

/** /v1 answers exactly as /v2 does, so clients of the original API switch by changing only the base URL. */
export const LOOKUP_PREFIXES = ['/v2/identities', '/v1/identities'] as const;

export const POST_MESSAGES = {
  body: 'Please send a JSON object with inputs: a list of 1 to 1,000 inputs.',
  tooMany: `Please send at most ${LOOKUP_LIMITS.maxInputs.toLocaleString('en-US')} inputs in one call; PUT a CSV for more.`,
  repeated: (name: string) => `Please give ${name} once; POST several inputs to look up more than one.`,
  method: (method: string) => `${method} is not supported here; look up with GET, POST or PUT.`,
} as const;

const LOOKUP_METHODS = 'GET, POST, PUT, OPTIONS';

/** A reply made whole, its headers set only once the call is metered (a 503 must not carry a CSV's headers). */
interface Made {
  text: string;
  type: string;
  disposition?: string;
}

function send(reply: FastifyReply, made: Made): string {
  reply.header('vary', 'accept');
  reply.type(made.type);
  if (made.disposition) reply.header('content-disposition', made.disposition);
  return made.text;
}

async function csvOf(
  requestId: string,
  prepared: Prepared,
  endpoint: LookupEndpoint,
  rows: { input: LookupInput; identities: Record<string, unknown>[] }[],
): Promise<Made> {
  const inputColumns = unionColumns(
    [],
    rows.map(
      (r) =>
        new Map(
          Object.keys(typeof r.input.raw === 'string' ? { [LOOKUP_ENDPOINTS[endpoint][0]]: '' } : r.input.raw).map(
            (k) => [k, ''],
          ),
        ),
    ),
  );
  const metadataColumns = unionColumns(
    [],
    rows.map((r) => metadataCells(r.input)),
  );
  const flat = rows.map((r) => r.identities.map((identity) => flatten(identity)));
  const columns = unionColumns(
    ['score', 'matchedOn', ...(await sampleColumns(prepared.template.compiled))],
    flat.flat(),
  );
  // Input columns are prefixed so they never collide with the template's (Compact Contacts has an `email` too).
  // Metadata keys likewise (`metadata.<key>`), after the inputs.
  let out = headerLine([
    ...inputColumns.map((c) => `input.${c}`),
    ...metadataColumns.map((c) => `${METADATA}.${c}`),
    ...columns,
  ]);
  rows.forEach((r, i) => {
    const raw = typeof r.input.raw === 'string' ? { [LOOKUP_ENDPOINTS[endpoint][0]]: r.input.raw } : r.input.raw;
    const metadata = metadataCells(r.input);
    const inputCells = [...inputColumns.map((c) => raw[c] ?? ''), ...metadataColumns.map((c) => metadata.get(c) ?? '')];
    const identities = flat[i]!;
    if (identities.length === 0) out += csvLine([...inputCells, ...columns.map(() => '')]);
    for (const identity of identities) out += csvLine([...inputCells, ...columns.map((c) => identity.get(c) ?? '')]);
  });
  return {
    text: out,
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${endpoint}-${requestId}.csv"`,
  };
}

const json = (body: unknown): Made => ({ text: JSON.stringify(body), type: 'application/json; charset=utf-8' });

export function registerLookupRoutes(app: FastifyInstance, deps: LookupDeps): void {
  const streamDeps = { ...deps, drain: drainOf(app) };
  // A reply made whole is metered before it is sent, so it carries what the call cost and what is left of the
  // month's allowance (issue 31; as PDL's x-call-credits-spent). A streamed CSV reply's headers go out first: its
  // cost is in the usage log (GET /v2/usage/calls).
  app.addHook('onSend', async (request, reply, payload) => {
    const charge = chargeOf(request);
    if (charge) {
      reply.header('x-call-cost', dollars(charge.costMicros));
      if (charge.allowanceLeftMicros !== null) {
        reply.header('x-monthly-allowance-remaining', dollars(charge.allowanceLeftMicros));
      }
    }
    return payload;
  });
  for (const prefix of LOOKUP_PREFIXES) {
    for (const endpoint of LOOKUP_ENDPOINT_NAMES) {
      const url = `${prefix}/${endpoint}`;

      app.get(url, { exposeHeadRoute: false }, async (request, reply) => {
        const caller = await identify(deps, request, reply);
        const query = request.query as Record<string, unknown>;
        const options = parseOptions(query, 'querystring');
        const prepared = await prepare(deps, caller, options);
        const named: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(query)) {
          if ((OPTION_NAMES as readonly string[]).includes(name) || name === PURPOSE_PARAMETER) continue;
          if (Array.isArray(value))
            throw invalid([{ path: `querystring.${name}`, message: POST_MESSAGES.repeated(name) }]);
          named[name] = value;
        }
        const parsed = parseInput(endpoint, named, 'querystring');
        if (parsed.errors) throw invalid(parsed.errors);
        const { matches, shaped } = await lookupAndShapeMetered(deps, request, reply, {
          prepared,
          endpoint,
          inputs: [parsed.input],
        });
        // The reply is made whole before the call is metered: a reply that cannot be made is not charged.
        const made = wantsCsv(options.format, request.headers.accept)
          ? await csvOf(request.id, prepared, endpoint, [{ input: parsed.input, identities: shaped[0]! }])
          : json({ requestId: request.id, identities: shaped[0]! });
        const metrics = countResults(matches);
        metrics.milliseconds = Math.round(reply.elapsedTime);
        const lookups = await auditOf(deps, [parsed.input], matches);
        await meter(deps, request, { caller: prepared.caller, endpoint, metrics, lookups });
        return send(reply, made);
      });

      app.post(url, async (request, reply) => {
        const caller = await identify(deps, request, reply);
        const body = request.body as Record<string, unknown> | undefined;
        if (!body || typeof body !== 'object' || Array.isArray(body) || !Array.isArray(body.inputs)) {
          throw invalid([{ path: 'body.inputs', message: POST_MESSAGES.body }]);
        }
        const raws = body.inputs as unknown[];
        if (raws.length === 0) throw invalid([{ path: 'body.inputs', message: POST_MESSAGES.body }]);
        if (raws.length > LOOKUP_LIMITS.maxInputs)
          throw invalid([{ path: 'body.inputs', message: POST_MESSAGES.tooMany }]);
        const options = parseOptions(body, 'body', ['inputs']);
        const prepared = await prepare(deps, caller, options);
        const { inputs, errors } = parseInputs(endpoint, raws, (i) => `body.inputs.${i}`);
        if (errors.length > 0) throw invalid(errors);
        // A repeat of a request already answered gets its reply again, neither run nor charged.
        const claim = deps.idempotency.keyOf(request, caller);
        const hash = requestHasher(request).update(JSON.stringify(body)).digest('hex');
        if (claim && !(await deps.idempotency.claim(claim, hash, reply))) return reply;
        try {
          const { matches, shaped } = await lookupAndShapeMetered(deps, request, reply, { prepared, endpoint, inputs });
          const made = wantsCsv(options.format, request.headers.accept)
            ? await csvOf(
                request.id,
                prepared,
                endpoint,
                inputs.map((input, i) => ({ input, identities: shaped[i]! })),
              )
            : json({
                requestId: request.id,
                // An input's metadata is echoed beside it, unchanged, only when it was given.
                results: inputs.map((input, i) => ({
                  input: input.raw,
                  ...(input.metadata ? { metadata: input.metadata } : {}),
                  identities: shaped[i]!,
                })),
              });
          const metrics = countResults(matches);
          metrics.milliseconds = Math.round(reply.elapsedTime);
          const lookups = await auditOf(deps, inputs, matches);
          await meter(deps, request, { caller: prepared.caller, endpoint, metrics, lookups });
          if (claim) {
            // Metered means served: a reply that could not be kept for replay is still answered, not failed.
            await deps.idempotency
              .finish(claim, {
                hash,
                status: 200,
                contentType: made.type,
                disposition: made.disposition,
                body: Buffer.from(made.text),
              })
              .catch(async (error: unknown) => {
                request.log.warn({ err: error }, 'an idempotent reply could not be kept');
                await deps.idempotency.abandon(claim).catch(() => {});
              });
          }
          return send(reply, made);
        } catch (error) {
          if (claim) await deps.idempotency.abandon(claim);
          throw error;
        }
      });

      app.put(url, async (request, reply) => streamCsvLookup(streamDeps, endpoint, request, reply));

      // Other methods are refused by name rather than run: HEAD would run (and bill) a lookup for its headers.
      // OPTIONS answers without CORS headers, so browsers refuse cross-origin calls: a key must never live in a
      // web page (docs/api-keys.md).
      app.options(url, async (_request, reply) => reply.code(204).header('allow', LOOKUP_METHODS).send());
      app.route({
        method: ['HEAD', 'DELETE', 'PATCH'],
        url,
        handler: async (request, reply) => {
          reply.header('allow', LOOKUP_METHODS);
          return sendError(reply, 405, 'method_not_allowed', POST_MESSAGES.method(request.method));
        },
      });
    }
  }
}
