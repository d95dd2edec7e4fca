/**
 * A batch of lookup inputs in, the scored identities of each out. Exact keys and PII are searched for the whole
 * batch at once (search.ts); each person found gets a score from the evidence for them: exact keys by strength,
 * recency and sharing, PII by the match model, several pieces combined. Ordered by score, best first.
 */
import type { LookupKey } from '@tessera/common/lookup-inputs';
import { LOOKUP_LIMITS } from '@tessera/common/lookups';
import type { RecordType } from '@tessera/common/record-types';
import type { Database } from '../../db/client';
import type { Field, Level, PiiFields } from '../scoring/comparisons';
import { combine, type KeyEvidence, keyEvidence, toScore } from '../scoring/exact';
import { type MatchModel, scoreCandidate } from '../scoring/model';
import type { LookupInput } from './inputs';
import {
  findByKeys,
  findPiiCandidates,
  type IdentityJson,
  type KeyHit,
  loadRecords,
  type PiiCandidate,
} from './search';
import { createYielder } from './yield';

export interface LookupOptions {
  types: Set<RecordType>;
  /** Only identities scoring at least this; null: every exact-key match and PII matches from 50. */
  minScore: number | null;
  limit: number;
  model: MatchModel;
  today: Date;
}

export interface PiiEvidence {
  weight: number;
  probability: number;
  swapped: boolean;
  /** Which of the person's addresses the query matched: their current one or an earlier one. */
  home: 'current' | 'previous';
  fields: Record<Field, { level: Level; weight: number }>;
}

export interface Match {
  record: IdentityJson;
  score: number;
  matchedOn: string[];
  explain: { keys: KeyEvidence[]; pii?: PiiEvidence };
}

const AGREES = new Set<Level>(['exact', 'alias', 'close']);
const INPUT_OF: Record<Field, string> = {
  firstName: 'firstName',
  lastName: 'lastName',
  street: 'address',
  city: 'city',
  state: 'state',
  zip: 'zip',
};

function bestHome(model: MatchModel, query: PiiFields, candidate: PiiCandidate): PiiEvidence {
  let best: PiiEvidence | null = null;
  candidate.homes.forEach((home, i) => {
    const s = scoreCandidate(model, query, { firstName: candidate.firstName, lastName: candidate.lastName, ...home });
    if (!best || s.weight > best.weight) {
      const probability = 1 / (1 + 2 ** -s.weight);
      best = {
        weight: s.weight,
        probability,
        swapped: s.swapped,
        home: i === 0 ? 'current' : 'previous',
        fields: s.explain,
      };
    }
  });
  return best!;
}

interface Evidence {
  keys: KeyEvidence[];
  pii?: PiiEvidence;
}

/** A found person as the match model compares them: their names, current address and any earlier one. */
function candidateOf(record: IdentityJson): PiiCandidate {
  const r = record as IdentityJson & Record<'firstName' | 'lastName' | 'address' | 'city' | 'state' | 'zip', string>;
  const data = (record.data ?? {}) as Record<string, string>;
  const homes = [{ address: r.address, city: r.city, state: r.state, zip: r.zip }];
  if (data.previousAddress) {
    homes.push({
      address: data.previousAddress,
      city: data.previousCity ?? '',
      state: data.previousState ?? '',
      zip: data.previousZip ?? '',
    });
  }
  return { id: record.id, firstName: r.firstName, lastName: r.lastName, homes };
}

const bits = (p: number) => Math.log2(Math.min(p, 1 - 1e-12) / (1 - Math.min(p, 1 - 1e-12)));

/**
 * Keys alone: independent evidence, the chance that at least one is right. With a name and address as well, the
 * keys' odds are multiplied by the PII likelihood ratio (its weight without the model's prior), so a name that does
 * not fit the person a key found lowers that person's score rather than being ignored.
 */
function probabilityOf(e: Evidence, model: MatchModel): number {
  if (e.keys.length === 0) return e.pii?.probability ?? 0;
  const keys = combine(e.keys.map((k) => k.probability));
  if (!e.pii) return keys;
  const likelihood = e.pii.weight - bits(model.prior);
  return 1 / (1 + 2 ** -(bits(keys) + likelihood));
}

export async function runLookup(database: Database, inputs: LookupInput[], options: LookupOptions): Promise<Match[][]> {
  const keys = new Map<LookupKey, Set<string>>();
  for (const input of inputs) {
    for (const k of input.keys) {
      const set = keys.get(k.kind) ?? new Set<string>();
      set.add(k.value);
      keys.set(k.kind, set);
    }
  }
  const piiInputs = inputs.filter((i) => i.pii);
  const [found, candidates] = await Promise.all([
    findByKeys(database, keys, options.types, options.limit),
    findPiiCandidates(
      database,
      piiInputs.map((i) => i.pii!),
      LOOKUP_LIMITS.piiCandidates,
    ),
  ]);

  const hitsByKey = new Map<string, KeyHit[]>();
  for (const hit of found.hits) {
    const k = `${hit.kind}\u0000${hit.key}`;
    const list = hitsByKey.get(k);
    if (list) list.push(hit);
    else hitsByKey.set(k, [hit]);
  }

  const floor = options.minScore ?? LOOKUP_LIMITS.piiMinScore;
  const evidence: Map<number, Evidence>[] = inputs.map((input) => {
    const byPerson = new Map<number, Evidence>();
    for (const k of input.keys) {
      for (const hit of hitsByKey.get(`${k.kind}\u0000${k.value}`) ?? []) {
        const e = byPerson.get(hit.id) ?? { keys: [] };
        const detail = { lastSeen: hit.lastSeen, landline: hit.detail === 'landline' };
        e.keys.push(keyEvidence(k.kind, detail, hit.sharedBy, options.today));
        byPerson.set(hit.id, e);
      }
    }
    return byPerson;
  });
  const pause = createYielder();
  for (const [n, input] of piiInputs.entries()) {
    await pause();
    const byPerson = evidence[inputs.indexOf(input)]!;
    const scored = candidates[n]!.map((c) => ({ id: c.id, pii: bestHome(options.model, input.pii!, c) }));
    scored.sort((a, b) => b.pii.weight - a.pii.weight);
    let kept = 0;
    for (const { id, pii } of scored) {
      const known = byPerson.get(id);
      if (known) known.pii = pii;
      else if (kept < options.limit && toScore(pii.probability) >= floor) {
        byPerson.set(id, { keys: [], pii });
        kept++;
      }
    }
  }

  const missing = new Set<number>();
  for (const byPerson of evidence) for (const id of byPerson.keys()) if (!found.records.has(id)) missing.add(id);
  const records = new Map([...found.records, ...(await loadRecords(database, [...missing], options.types))]);

  // byAny with a key and a name: the name and address weigh in on everyone the key found, for or against.
  inputs.forEach((input, i) => {
    if (!input.pii) return;
    for (const [id, e] of evidence[i]!) {
      const record = records.get(id);
      if (!e.pii && record) e.pii = bestHome(options.model, input.pii, candidateOf(record));
    }
  });

  return evidence.map((byPerson) => {
    const ranked: (Match & { probability: number; weight: number })[] = [];
    for (const [id, e] of byPerson) {
      const record = records.get(id);
      if (!record) continue;
      const probability = probabilityOf(e, options.model);
      const score = toScore(probability);
      if (options.minScore !== null && score < options.minScore) continue;
      const matchedOn = [...new Set(e.keys.map((k) => k.input as string))];
      if (e.pii) {
        for (const [field, { level }] of Object.entries(e.pii.fields)) {
          if (AGREES.has(level)) matchedOn.push(INPUT_OF[field as Field]);
        }
      }
      ranked.push({ record, score, matchedOn, explain: e, probability, weight: e.pii?.weight ?? 0 });
    }
    ranked.sort((a, b) => b.probability - a.probability || b.weight - a.weight || a.record.id - b.record.id);
    return ranked
      .slice(0, options.limit)
      .map(({ record, score, matchedOn, explain }) => ({ record, score, matchedOn, explain }));
  });
}
