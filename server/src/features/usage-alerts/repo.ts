/** SQL of usage alerts: settings, firings, and what an evaluation reads in one round trip. */
import {
  RECENT_FIRINGS,
  USAGE_ALERT_DEFAULTS,
  type UsageAlertFiring,
  type UsageAlertKind,
  type UsageAlertSettings,
  type UsageAlerts,
} from '@tessera/common/usage-alerts';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { usageAlertFirings, usageAlertSettings, users } from '../../db/schema';

type FiringRow = typeof usageAlertFirings.$inferSelect;
export type NewFiring = Omit<typeof usageAlertFirings.$inferInsert, 'id'>;

export function toFiring(row: FiringRow): UsageAlertFiring {
  return {
    id: row.id,
    organizationId: row.organizationId,
    kind: row.kind as UsageAlertKind,
    share: row.share,
    period: row.period,
    firedAt: row.firedAt.toISOString(),
    spent: row.spent,
    monthlyLimit: row.monthlyLimit,
    requests: row.requests,
    average: row.average,
    multiple: row.multiple,
  };
}

export async function findSettings(
  db: Executor,
  organizationId: number,
): Promise<(UsageAlertSettings & { updatedAt: Date }) | null> {
  const [row] = await db
    .select()
    .from(usageAlertSettings)
    .where(eq(usageAlertSettings.organizationId, organizationId))
    .limit(1);
  return row ?? null;
}

/** Saves an organization's settings; answers when. */
export async function saveSettings(db: Executor, organizationId: number, settings: UsageAlertSettings): Promise<Date> {
  const values = { ...settings, updatedAt: new Date() };
  await db
    .insert(usageAlertSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: usageAlertSettings.organizationId, set: values });
  return values.updatedAt;
}

export async function recentFirings(db: Executor, organizationId: number): Promise<UsageAlertFiring[]> {
  const rows = await db
    .select()
    .from(usageAlertFirings)
    .where(eq(usageAlertFirings.organizationId, organizationId))
    .orderBy(desc(usageAlertFirings.firedAt), desc(usageAlertFirings.id))
    .limit(RECENT_FIRINGS);
  return rows.map(toFiring);
}

/** The settings in force (the defaults until saved) and the recent firings: the `usageAlerts` reply. */
export async function usageAlertsOf(db: Executor, organizationId: number): Promise<UsageAlerts> {
  const [saved, firings] = await Promise.all([findSettings(db, organizationId), recentFirings(db, organizationId)]);
  const { updatedAt, ...settings } = saved ?? {
    ...USAGE_ALERT_DEFAULTS,
    thresholds: [...USAGE_ALERT_DEFAULTS.thresholds],
    updatedAt: null,
  };
  return { organizationId, ...settings, updatedAt: updatedAt?.toISOString() ?? null, firings };
}

/** Inserts a firing unless its (organization, kind, share, period) fired already; the row only when inserted. */
export async function insertFiring(db: Executor, firing: NewFiring): Promise<UsageAlertFiring | null> {
  const [row] = await db.insert(usageAlertFirings).values(firing).onConflictDoNothing().returning();
  return row ? toFiring(row) : null;
}

/** The live, active administrators (admin and above) of an organization, who are mailed its alerts. */
export async function organizationAdmins(db: Executor, organizationId: number) {
  return db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(
      and(
        eq(users.organizationId, organizationId),
        inArray(users.role, ['admin', 'super', 'root']),
        eq(users.isActive, true),
        isNull(users.deletedAt),
      ),
    );
}

/** What an evaluation needs, read at one moment. */
export interface Standing {
  name: string;
  settings: UsageAlertSettings;
  /** The monthly limit of the contract in force, or null (none in force, or no limit). */
  monthlyLimit: number | null;
  spent: number;
  today: number;
  trailing: number;
  /** The organization's first day of calls, or null when it has none. */
  firstDay: Date | null;
  /** `kind:share` of the firings already recorded for this month and today. */
  fired: Set<string>;
}

const STANDING = `select o.name, s.thresholds_on, s.thresholds, s.spike_on, s.spike_multiple,
  (select case when c.status = 'active' and c.ends_at > $2::timestamptz then c.monthly_limit end
     from (select * from contracts where organization_id = o.id and starts_at <= $2::timestamptz
           order by starts_at desc, id desc limit 1) c) as monthly_limit,
  (select coalesce(sum(r.cost), 0) from usage_totals r where r.bucket = 'day-user' and r.organization_id = o.id
     and r.at >= $3::timestamptz and r.at < $4::timestamptz) as spent,
  (select coalesce(sum(r.requests), 0) from usage_totals r where r.bucket = 'day-user' and r.organization_id = o.id
     and r.at = $5::timestamptz) as today,
  (select coalesce(sum(r.requests), 0) from usage_totals r where r.bucket = 'day-user' and r.organization_id = o.id
     and r.at >= $6::timestamptz and r.at < $5::timestamptz) as trailing,
  (select min(r.at) from usage_totals r where r.bucket = 'day-user' and r.organization_id = o.id) as first_day,
  (select coalesce(array_agg(f.kind || ':' || f.share), '{}') from usage_alert_firings f
     where f.organization_id = o.id and f.period in ($7, $8)) as fired
from organizations o left join usage_alert_settings s on s.organization_id = o.id
where o.id = $1 and o.deleted_at is null`;

interface StandingRow {
  name: string;
  thresholds_on: boolean | null;
  thresholds: number[] | null;
  spike_on: boolean | null;
  spike_multiple: string | number | null;
  monthly_limit: string | number | null;
  spent: string | number;
  today: string | number;
  trailing: string | number;
  first_day: Date | string | null;
  fired: string[];
}

export interface StandingWindow {
  at: Date;
  monthStart: Date;
  nextMonthStart: Date;
  dayStart: Date;
  windowStart: Date;
  month: string;
  day: string;
}

/** The organization's standing at `w.at`, or null when it does not exist (or was deleted). */
export async function readStanding(
  database: Database,
  organizationId: number,
  w: StandingWindow,
): Promise<Standing | null> {
  const iso = (d: Date) => d.toISOString();
  const [row] = await database.query<StandingRow>(
    STANDING,
    [
      organizationId,
      iso(w.at),
      iso(w.monthStart),
      iso(w.nextMonthStart),
      iso(w.dayStart),
      iso(w.windowStart),
      w.month,
      w.day,
    ],
    { prepare: true },
  );
  if (!row) return null;
  const d = USAGE_ALERT_DEFAULTS;
  return {
    name: row.name,
    settings: {
      thresholdsOn: row.thresholds_on ?? d.thresholdsOn,
      thresholds: row.thresholds ?? [...d.thresholds],
      spikeOn: row.spike_on ?? d.spikeOn,
      spikeMultiple: row.spike_multiple === null ? d.spikeMultiple : Number(row.spike_multiple),
    },
    monthlyLimit: row.monthly_limit === null ? null : Number(row.monthly_limit),
    spent: Number(row.spent),
    today: Number(row.today),
    trailing: Number(row.trailing),
    firstDay: row.first_day === null ? null : new Date(row.first_day),
    fired: new Set(row.fired),
  };
}
