/**
 * /v2/usage (issue 16): the series, totals and calls of the caller's usage, and the calls as a CSV file. Console
 * sessions and API keys (issue 31: a key reads its own calls, an administrator's key its organization's); scoped on
 * the server (scope.ts). The query parameters are in query.ts. Each reply is one data
 * area of the console's store (usageSeries, usageTotals, usageCalls), so it never mixes with the keyed ones.
 */
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { BadRequest } from '../../http/errors';
import { actsAcrossOrganizations } from '../console/access';
import type { LookupCaller } from '../identities/caller';
import { keyAuthenticator } from '../keys/authenticator';
import type { KeyVerifier } from '../keys/verify';
import { callsCsv, callsPage, type NameScope } from './calls';
import { knowTimeZones, type ReportQuery, type ReportQueryInput, reportQuery, settle } from './query';
import { seriesOf, totalsOf } from './report';
import { keyScopeOf, scopeOf, type Who } from './scope';

const day = (date: Date) => date.toISOString().slice(0, 10);

export function registerUsageReportRoutes(
  app: FastifyInstance,
  deps: { database: Database; verifier: KeyVerifier },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const byKey = keyAuthenticator(deps.verifier);
  const signedIn = requireRank('user');
  /** The key a call came with (Authorization: Bearer ...), checked as a lookup's is; absent for a console session. */
  const keys = new WeakMap<FastifyRequest, LookupCaller>();
  const sessionOrKey = async (request: FastifyRequest) => {
    const key = await byKey(request);
    if (key) keys.set(request, key);
    else await signedIn(request);
  };
  const options = { preHandler: sessionOrKey, schema: { querystring: reportQuery } };
  // The export walks every page itself: a page size or cursor there would be ignored, so it is refused.
  const exportOptions = {
    preHandler: sessionOrKey,
    schema: { querystring: reportQuery.omit({ after: true, pageSize: true }) },
  };
  app.addHook('onReady', async () => {
    const zones = await database.query<{ name: string }>('select name from pg_timezone_names');
    knowTimeZones(zones.map((z) => z.name));
  });

  async function prepare(request: FastifyRequest): Promise<{ query: ReportQuery; who: Who; names: NameScope }> {
    const input = request.query as ReportQueryInput;
    const query = settle(input);
    if ('message' in query) throw new BadRequest(query.message, [query]);
    const asked = { userId: input.userId, organizationId: input.organizationId, keyId: input.keyId };
    const key = keys.get(request);
    const who = key ? await keyScopeOf(database, key, asked) : await scopeOf(database, request.user, asked);
    // Whose names the calls may carry: the console's rules for the session's user, or for the key's (issue 32).
    const viewer = key
      ? ({ id: key.userId, role: key.role, organizationId: key.organizationId } as User)
      : request.user;
    const names = {
      across: actsAcrossOrganizations(viewer),
      userId: viewer.id,
      organizationId: viewer.organizationId,
      admin: hasRank(viewer.role, 'admin'),
    };
    return { query, who, names };
  }

  const range = (query: ReportQuery) => ({ from: query.from.toISOString(), to: query.to.toISOString(), tz: query.tz });

  r.get('/v2/usage/series', options, async (request) => {
    const { query, who } = await prepare(request);
    const points = await seriesOf(database, query, who);
    return { usageSeries: { ...range(query), metric: query.metric, interval: query.interval, points } };
  });

  r.get('/v2/usage/totals', options, async (request) => {
    const { query, who } = await prepare(request);
    return { usageTotals: { ...range(query), totals: await totalsOf(database, query, who) } };
  });

  r.get('/v2/usage/calls', options, async (request) => {
    const { query, who, names } = await prepare(request);
    return { usageCalls: { ...range(query), ...(await callsPage(database, query, who, names)) } };
  });

  r.get('/v2/usage/calls.csv', exportOptions, async (request, reply: FastifyReply) => {
    const { query, who, names } = await prepare(request);
    const name = `usage-${day(query.from)}-to-${day(query.to)}.csv`;
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`);
    return reply.send(callsCsv(database, query, who, names));
  });
}
