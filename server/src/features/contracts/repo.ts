/**
 * SQL of contracts and their history (issue 19, decision 0033). Amounts go in as decimal strings cast to numeric and
 * come out of the spend query as numeric text: no float arithmetic on money anywhere here.
 */
import type {
  Contract,
  ContractChange,
  ContractChangeAction,
  ContractSpend,
  ContractStatus,
} from '@tessera/common/contracts';
import type { Purpose } from '@tessera/common/purposes';
import { desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { contractChanges, contracts, users } from '../../db/schema';
import type { ContractPatch } from './schemas';

export type ContractRow = typeof contracts.$inferSelect;

/** A contract as the API gives it: with the permissible purposes it requires (issue 34; empty: none). */
export type ContractOut = Contract & { purposes: Purpose[] };

export function toContract(row: ContractRow): ContractOut {
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
    pricePerEvent: row.pricePerEvent,
    subscriptionLimit: row.subscriptionLimit,
    purposes: (row.purposes ?? []) as Purpose[],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What members see of their organization's contracts: enough to tell the one in force and its monthly limit. */
export type ContractSummary = Pick<
  Contract,
  'id' | 'organizationId' | 'startsAt' | 'endsAt' | 'status' | 'monthlyLimit'
>;

export function toSummary(c: Contract): ContractSummary {
  const { id, organizationId, startsAt, endsAt, status, monthlyLimit } = c;
  return { id, organizationId, startsAt, endsAt, status, monthlyLimit };
}

const numeric = (text: string): SQL<number> => sql<number>`${text}::numeric`;

/** A checked body's values as columns: amounts as numeric casts of their decimal text. */
export function columnsOf(patch: ContractPatch) {
  const { pricePerRequest, pricePerIdentity, pricePerEvent, monthlyLimit, groupPrices, ...rest } = patch;
  return {
    ...rest,
    ...(pricePerRequest === undefined ? {} : { pricePerRequest: numeric(pricePerRequest) }),
    ...(pricePerIdentity === undefined ? {} : { pricePerIdentity: numeric(pricePerIdentity) }),
    ...(pricePerEvent === undefined ? {} : { pricePerEvent: numeric(pricePerEvent) }),
    ...(monthlyLimit === undefined ? {} : { monthlyLimit: monthlyLimit === null ? null : numeric(monthlyLimit) }),
    // Stored as JSON numbers, as the 402 check reads them; a decimal of at most six places prints back exactly.
    ...(groupPrices === undefined
      ? {}
      : { groupPrices: Object.fromEntries(Object.entries(groupPrices).map(([g, p]) => [g, Number(p)])) }),
  };
}

export async function listContracts(db: Executor, organizationId: number | null): Promise<ContractRow[]> {
  return db
    .select()
    .from(contracts)
    .where(organizationId === null ? undefined : eq(contracts.organizationId, organizationId))
    .orderBy(desc(contracts.startsAt), desc(contracts.id));
}

export async function findContract(db: Executor, id: number, lock = false): Promise<ContractRow | undefined> {
  const query = db.select().from(contracts).where(eq(contracts.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Each field whose value differs between two versions of a contract (either may be absent). */
export function differences(before: Contract | null, after: Contract | null): ContractChange['changes'] {
  const out: ContractChange['changes'] = {};
  const skip = new Set(['id', 'createdAt', 'updatedAt']);
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (skip.has(key)) continue;
    const from = before ? (before as unknown as Record<string, unknown>)[key] : null;
    const to = after ? (after as unknown as Record<string, unknown>)[key] : null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[key] = { from: from ?? null, to: to ?? null };
  }
  return out;
}

export async function recordChange(
  db: Executor,
  entry: { contract: Contract; action: ContractChangeAction; changes: ContractChange['changes']; userId: number },
): Promise<void> {
  await db.insert(contractChanges).values({
    contractId: entry.contract.id,
    organizationId: entry.contract.organizationId,
    action: entry.action,
    changes: entry.changes,
    userId: entry.userId,
  });
}

/** A contract's history, newest first, with the name of who made each change. */
export async function listChanges(db: Executor, contractId: number): Promise<ContractChange[]> {
  const rows = await db
    .select({ change: contractChanges, name: users.name, email: users.email })
    .from(contractChanges)
    .leftJoin(users, eq(users.id, contractChanges.userId))
    .where(eq(contractChanges.contractId, contractId))
    .orderBy(desc(contractChanges.at), desc(contractChanges.id));
  return rows.map(({ change, name, email }) => ({
    id: change.id,
    contractId: change.contractId,
    organizationId: change.organizationId,
    action: change.action as ContractChangeAction,
    changes: change.changes,
    userId: change.userId,
    userName: name || email || null,
    at: change.at.toISOString(),
  }));
}

const SPEND = `select c.monthly_limit::text as monthly_limit,
  (select coalesce(sum(r.cost), 0)::text from usage_totals r where r.bucket = 'day'
     and r.organization_id = c.organization_id and r.at >= $2::timestamptz and r.at < $3::timestamptz) as spent
from contracts c where c.id = $1`;

/** This UTC month's spending of the contract's organization, summed from the day rollups as the 402 check sums it. */
export async function monthSpend(database: Database, contractId: number, now = new Date()): Promise<ContractSpend> {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const [row] = await database.query<{ monthly_limit: string | null; spent: string }>(SPEND, [
    contractId,
    from.toISOString(),
    to.toISOString(),
  ]);
  return {
    id: contractId,
    month: from.toISOString().slice(0, 7),
    spent: row?.spent ?? '0',
    monthlyLimit: row?.monthly_limit ?? null,
  };
}
