/**
 * /v2/contracts (issue 5; pages in issue 19, decision 0033). An organization's administrators read its contracts
 * whole (with this month's spend and the history); its other members read only what tells the contract in force
 * and its monthly limit (the home page's bar); super and root read all and create, change and delete them. Every
 * write records who changed what, and takes effect on every process at once (billing.ts).
 */
import { CONTRACT_MESSAGES, type Contract, type ContractChange } from '@tessera/common/contracts';
import type { User } from '@tessera/common/entities';
import { hasRank } from '@tessera/common/roles';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { contracts } from '../../db/schema';
import { requireRank } from '../../http/auth';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors';
import { eachOf, idListParams } from '../../http/id-list';
import { deleted, keyed } from '../../http/keyed';
import type { Hub } from '../../socket/hub';
import { actorOf, audit } from '../audit/record';
import { actsAcrossOrganizations, mustReach } from '../console/access';
import { findOrganization } from '../organizations/repo';
import type { Billing } from './billing';
import {
  columnsOf,
  differences,
  findContract,
  listChanges,
  listContracts,
  monthSpend,
  recordChange,
  toContract,
  toSummary,
} from './repo';
import { contractBody, contractListQuery, contractParams, contractPatch } from './schemas';

export { toContract } from './repo';

function checkDates(startsAt: Date, endsAt: Date): void {
  if (endsAt <= startsAt) {
    throw new BadRequest(CONTRACT_MESSAGES.endsBeforeStart, [
      { path: 'body.endsAt', message: CONTRACT_MESSAGES.endsBeforeStart },
    ]);
  }
}

/** Whether the user may read an organization's contracts whole: its administrators, and super+. */
export function readsContractsOf(user: User, organizationId: number): boolean {
  return actsAcrossOrganizations(user) || (hasRank(user.role, 'admin') && user.organizationId === organizationId);
}

/** Who made a change: the real user while impersonating. */
const author = (user: User) => user.impersonator ?? user.id;

const AUDITED = { created: 'contract.create', updated: 'contract.update', deleted: 'contract.delete' } as const;

/** A change goes into the contract's own history (shown on its page) and the audit log, in the same transaction. */
async function logChange(
  tx: Executor,
  request: FastifyRequest,
  contract: Contract,
  action: keyof typeof AUDITED,
  changes: ContractChange['changes'],
): Promise<void> {
  await recordChange(tx, { contract, action, changes, userId: author(request.user) });
  await audit(tx, {
    action: AUDITED[action],
    ...actorOf(request),
    targetType: 'contract',
    targetId: contract.id,
    detail: { organizationId: contract.organizationId, fields: Object.keys(changes) },
  });
}

/** Another table still refers to the row (SQLSTATE 23503 on both engines, maybe as the cause). */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (e.code === '23503') return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function registerContractRoutes(app: FastifyInstance, deps: { database: Database; hub: Hub; billing: Billing }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, hub, billing } = deps;

  /** Drops every process's cached standing of the organization and pushes the change to those who may see it. */
  async function announce(organizationId: number, out: Record<string, unknown>) {
    await billing.changed(organizationId);
    await hub.publish(`organization:${organizationId}`, out, { minRank: 'admin' });
    return out;
  }

  r.get(
    '/v2/contracts',
    { preHandler: requireRank('user'), schema: { querystring: contractListQuery } },
    async (request) => {
      const { user } = request;
      const asked = request.query.organizationId;
      if (actsAcrossOrganizations(user)) {
        return { contracts: keyed((await listContracts(database.db, asked ?? null)).map(toContract)) };
      }
      if (asked !== undefined && asked !== user.organizationId) throw new Forbidden(CONTRACT_MESSAGES.forbidden);
      if (user.organizationId === null) return { contracts: {} };
      const rows = (await listContracts(database.db, user.organizationId)).map(toContract);
      return { contracts: keyed(hasRank(user.role, 'admin') ? rows : rows.map(toSummary)) };
    },
  );

  // One id or a comma-separated list (spec §2); one out of reach refuses the list as it would alone.
  r.get('/v2/contracts/:id', { preHandler: requireRank('user'), schema: { params: idListParams } }, async (request) => {
    const found = await eachOf(request.params.id, async (id) => {
      const row = await findContract(database.db, id);
      // Below super, a contract out of reach and a missing one answer alike, so ids cannot be probed.
      if (!actsAcrossOrganizations(request.user) && (!row || !readsContractsOf(request.user, row.organizationId))) {
        throw new Forbidden(CONTRACT_MESSAGES.forbidden);
      }
      if (!row) throw new NotFound(CONTRACT_MESSAGES.notFound);
      const [spend, changes] = await Promise.all([monthSpend(database, row.id), listChanges(database.db, row.id)]);
      return { row, spend, changes };
    });
    return {
      contracts: keyed(found.map(({ row }) => toContract(row))),
      contractSpend: keyed(found.map(({ spend }) => spend)),
      contractChanges: keyed(found.flatMap(({ changes }) => changes)),
    };
  });

  r.post(
    '/v2/contracts',
    { preHandler: requireRank('super'), schema: { body: contractBody } },
    async (request, reply) => {
      const { organizationId, ...patch } = request.body;
      checkDates(patch.startsAt, patch.endsAt);
      mustReach(request.user, 'organization', (await findOrganization(database.db, organizationId))?.id);
      const made = await database.transaction(async (tx) => {
        const [row] = await tx
          .insert(contracts)
          .values({ ...columnsOf(patch), organizationId, startsAt: patch.startsAt, endsAt: patch.endsAt })
          .returning();
        const contract = toContract(row!);
        await logChange(tx, request, contract, 'created', differences(null, contract));
        return contract;
      });
      reply.code(201);
      return announce(organizationId, { contracts: keyed([made]) });
    },
  );

  r.put(
    '/v2/contracts/:id',
    { preHandler: requireRank('super'), schema: { params: contractParams, body: contractPatch } },
    async (request) => {
      const updated = await database.transaction(async (tx) => {
        const current = await findContract(tx, request.params.id, true);
        if (!current) throw new NotFound(CONTRACT_MESSAGES.notFound);
        checkDates(request.body.startsAt ?? current.startsAt, request.body.endsAt ?? current.endsAt);
        const [row] = await tx
          .update(contracts)
          .set({ ...columnsOf(request.body), updatedAt: new Date() })
          .where(eq(contracts.id, current.id))
          .returning();
        const before = toContract(current);
        const after = toContract(row!);
        const changes = differences(before, after);
        if (Object.keys(changes).length > 0) {
          await logChange(tx, request, after, 'updated', changes);
        }
        return after;
      });
      return announce(updated.organizationId, { contracts: keyed([updated]) });
    },
  );

  r.delete(
    '/v2/contracts/:id',
    { preHandler: requireRank('super'), schema: { params: contractParams } },
    async (request) => {
      let gone: Contract;
      try {
        gone = await database.transaction(async (tx) => {
          const current = await findContract(tx, request.params.id, true);
          if (!current) throw new NotFound(CONTRACT_MESSAGES.notFound);
          const contract = toContract(current);
          await logChange(tx, request, contract, 'deleted', differences(contract, null));
          await tx.delete(contracts).where(eq(contracts.id, current.id));
          return contract;
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new Conflict(CONTRACT_MESSAGES.inUse);
        throw error;
      }
      return announce(gone.organizationId, { contracts: deleted(gone.id) });
    },
  );
}
