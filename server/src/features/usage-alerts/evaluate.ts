/**
 * Which usage alerts are due for an organization now, and firing them (decision 0029). A threshold is due when the
 * month's spend (UTC calendar month, as billing counts it) reaches its share of the monthly limit of the contract
 * in force; a spike when today's requests (UTC) exceed the multiple of the trailing 7-day daily average, for an
 * organization with at least 7 days of history and an average of at least SPIKE_MIN_AVERAGE. Each fires once per
 * period: the firing's row is inserted with a unique key, and only the process whose insert succeeded notifies.
 */
import { SPIKE_MIN_AVERAGE, SPIKE_WINDOW_DAYS, type UsageAlertFiring } from '@tessera/common/usage-alerts';
import type { Database } from '../../db/client';
import { toMicros } from '../contracts/pricing';
import { insertFiring, type NewFiring, readStanding, type Standing, type StandingWindow } from './repo';

const DAY_MS = 24 * 3600_000;

export function windowAt(ms: number): StandingWindow {
  const at = new Date(ms);
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const dayStart = new Date(Date.UTC(y, m, at.getUTCDate()));
  return {
    at,
    monthStart: new Date(Date.UTC(y, m, 1)),
    nextMonthStart: new Date(Date.UTC(y, m + 1, 1)),
    dayStart,
    windowStart: new Date(dayStart.getTime() - SPIKE_WINDOW_DAYS * DAY_MS),
    month: at.toISOString().slice(0, 7),
    day: at.toISOString().slice(0, 10),
  };
}

/** The firings due for a standing and not yet recorded (pure: the tests of the rules call it directly). */
export function dueFirings(organizationId: number, s: Standing, w: StandingWindow): NewFiring[] {
  const due: NewFiring[] = [];
  const { settings } = s;
  if (settings.thresholdsOn && s.monthlyLimit !== null && s.monthlyLimit > 0) {
    const spent = toMicros(s.spent);
    const limit = toMicros(s.monthlyLimit);
    for (const share of settings.thresholds) {
      // In integers: spent / limit >= share / 100.
      if (spent * 100 < limit * share || s.fired.has(`threshold:${share}`)) continue;
      due.push({
        organizationId,
        kind: 'threshold',
        share,
        period: w.month,
        firedAt: w.at,
        spent: s.spent,
        monthlyLimit: s.monthlyLimit,
      });
    }
  }
  const average = s.trailing / SPIKE_WINDOW_DAYS;
  const history = s.firstDay !== null && s.firstDay.getTime() <= w.windowStart.getTime();
  if (
    settings.spikeOn &&
    history &&
    average >= SPIKE_MIN_AVERAGE &&
    s.today > settings.spikeMultiple * average &&
    !s.fired.has('spike:0')
  ) {
    due.push({
      organizationId,
      kind: 'spike',
      share: 0,
      period: w.day,
      firedAt: w.at,
      requests: s.today,
      average: Math.round(average * 100) / 100,
      multiple: settings.spikeMultiple,
    });
  }
  return due;
}

export interface Fired {
  organizationName: string;
  firing: UsageAlertFiring;
}

/** Records the alerts due now; answers those this call recorded (another process may have recorded the rest). */
export async function evaluateOrganization(database: Database, organizationId: number, now: number): Promise<Fired[]> {
  const w = windowAt(now);
  const standing = await readStanding(database, organizationId, w);
  if (!standing) return [];
  const fired: Fired[] = [];
  for (const firing of dueFirings(organizationId, standing, w)) {
    const row = await insertFiring(database.db, firing);
    if (row) fired.push({ organizationName: standing.name, firing: row });
  }
  return fired;
}
