/**
 * Scores of exact-key matches (docs/scoring.md): how surely a key names one person (its strength), how recently
 * the key was last seen with them, and how many people share it. A household's landline or IP address is shared;
 * the score says so rather than claiming each of them.
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';

/** The chance that a key seen with a person, recently and with nobody else, is that person's. */
export const KEY_STRENGTH: Record<LookupKey | 'landline', number> = {
  id: 1,
  email: 0.97,
  md5: 0.97,
  sha256: 0.97,
  phone: 0.95,
  landline: 0.85,
  device: 0.95,
  vin: 0.9,
  ip: 0.7,
};

/** Full strength when last seen within a year; a tenth less for every further year, down to half. */
export function recencyFactor(lastSeen: string | null, today: Date): number {
  if (!lastSeen) return 0.5;
  const years = (today.getTime() - Date.parse(`${lastSeen}T00:00:00Z`)) / (365.25 * 86_400_000);
  if (years <= 1) return 1;
  return Math.max(0.5, 1 - 0.1 * (years - 1));
}

export interface KeyEvidence {
  input: LookupKey;
  strength: number;
  lastSeen: string | null;
  recency: number;
  /** People in the graph the key is seen with. */
  sharedBy: number;
  /** 0-1: strength × recency, shared evenly between the people who have the key. */
  probability: number;
}

export function keyEvidence(
  input: LookupKey,
  detail: { lastSeen: string | null; landline?: boolean },
  sharedBy: number,
  today: Date,
): KeyEvidence {
  const strength = KEY_STRENGTH[input === 'phone' && detail.landline ? 'landline' : input];
  const recency = input === 'id' ? 1 : recencyFactor(detail.lastSeen, today);
  return {
    input,
    strength,
    lastSeen: detail.lastSeen,
    recency: Math.round(recency * 100) / 100,
    sharedBy,
    probability: (strength * recency) / Math.max(1, sharedBy),
  };
}

/** Independent pieces of evidence for one person, combined: the chance that at least one of them is right. */
export function combine(probabilities: readonly number[]): number {
  return 1 - probabilities.reduce((miss, p) => miss * (1 - p), 1);
}

export const toScore = (probability: number) => Math.round(Math.min(1, Math.max(0, probability)) * 100);
