/**
 * /v2/contracts (issue 5, minimal; the pages come later): organization members read their organization's contracts;
 * super and root read all and make or change them. A change takes effect on every process at once (billing.ts).
 */
import { CONTRACT_MESSAGES, type Contract, type ContractStatus } from '@tessera/common/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { contracts } from '../../db/schema';
import { requireRank } from '../../http/auth';
import { BadRequest, NotFound } from '../../http/errors';
import { keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { actsAcrossOrganizations, inReach, mustReach } from '../console/access';
import { findOrganization } from '../organizations/repo';
import type { Billing } from './billing';
import { contractBody, contractParams, contractPatch } from './schemas';

type Row = typeof contracts.$inferSelect;

export function toContract(row: Row): Contract {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: row.status as ContractStatus,
    pricePerRequest: row.pricePerRequest,
    pricePerIdentity: row.pricePerIdentity,
    groupPrices: row.groupPrices,
    monthlyLimit: row.monthlyLimit,
    rateLimit: row.rateLimit,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function checkDates(startsAt: Date, endsAt: Date): void {
  if (endsAt <= startsAt) {
    throw new BadRequest(CONTRACT_MESSAGES.endsBeforeStart, [
      { path: 'body.endsAt', message: CONTRACT_MESSAGES.endsBeforeStart },
    ]);
  }
}

export function registerContractRoutes(app: FastifyInstance, deps: { database: Database; hub: Hub; billing: Billing }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub, billing } = deps;

  async function announce(row: Row) {
    await billing.changed(row.organizationId);
    const out = { contracts: keyed([toContract(row)]) };
    await hub.publish(`organization:${row.organizationId}`, out);
    return out;
  }

  r.get('/v2/contracts', { preHandler: requireRank('user') }, async (request) => {
    const { user } = request;
    if (!actsAcrossOrganizations(user) && user.organizationId === null) return { contracts: {} };
    const rows = await database.db
      .select()
      .from(contracts)
      .where(actsAcrossOrganizations(user) ? undefined : eq(contracts.organizationId, user.organizationId!))
      .orderBy(desc(contracts.startsAt), desc(contracts.id));
    return { contracts: keyed(rows.map(toContract)) };
  });

  r.get(
    '/v2/contracts/:id',
    { preHandler: requireRank('user'), schema: { params: contractParams } },
    async (request) => {
      const [row] = await database.db.select().from(contracts).where(eq(contracts.id, request.params.id));
      if (!row || !inReach(request.user, row.organizationId)) throw new NotFound(CONTRACT_MESSAGES.notFound);
      return { contracts: keyed([toContract(row)]) };
    },
  );

  r.post(
    '/v2/contracts',
    { preHandler: requireRank('super'), schema: { body: contractBody } },
    async (request, reply) => {
      const body = request.body;
      checkDates(body.startsAt, body.endsAt);
      mustReach(request.user, 'organization', (await findOrganization(database.db, body.organizationId))?.id);
      const [row] = await database.db.insert(contracts).values(body).returning();
      reply.code(201);
      return announce(row!);
    },
  );

  r.put(
    '/v2/contracts/:id',
    { preHandler: requireRank('super'), schema: { params: contractParams, body: contractPatch } },
    async (request) => {
      const row = await database.transaction(async (tx) => {
        const [current] = await tx.select().from(contracts).where(eq(contracts.id, request.params.id)).for('update');
        if (!current) throw new NotFound(CONTRACT_MESSAGES.notFound);
        checkDates(request.body.startsAt ?? current.startsAt, request.body.endsAt ?? current.endsAt);
        const [updated] = await tx
          .update(contracts)
          .set({ ...request.body, updatedAt: new Date() })
          .where(and(eq(contracts.id, current.id)))
          .returning();
        return updated!;
      });
      return announce(row);
    },
  );
}
