/**
 * m and u fitted the way the lookups meet candidates: each labelled PII query's candidates come from the
 * endpoints' own SQL blocking, each compared at the address of theirs that fits best; the true person is a match,
 * every other candidate a non-match. So u is measured among the people blocking lets through (namesakes and
 * neighbours), not among random strangers, and the prior is the share of true matches among candidates.
 */
import type { Database } from '../../db/client';
import { findPiiCandidates } from '../identities/search';
import type { PiiFields } from './comparisons';
import { compare, type Field, type Level } from './comparisons';
import { DEFAULT_MODEL, estimate, type MatchModel, scoreCandidate } from './model';

export interface LabelledPii {
  input: PiiFields;
  identityId: number | null;
}

/** Pairs of evidence the typical values count as (see estimate). */
export const SHRINK_STRENGTH = 200;

export async function fitModel(database: Database, queries: LabelledPii[], perBlock = 200): Promise<MatchModel> {
  const pairs: { levels: Record<Field, Level>; match: boolean }[] = [];
  for (let i = 0; i < queries.length; i += 500) {
    const batch = queries.slice(i, i + 500);
    const candidates = await findPiiCandidates(
      database,
      batch.map((q) => q.input),
      perBlock,
    );
    batch.forEach((q, j) => {
      for (const c of candidates[j]!) {
        let best: { weight: number; levels: Record<Field, Level> } | null = null;
        for (const home of c.homes) {
          const candidate = { firstName: c.firstName, lastName: c.lastName, ...home };
          const scored = scoreCandidate(DEFAULT_MODEL, q.input, candidate);
          const query = scored.swapped
            ? { ...q.input, firstName: q.input.lastName, lastName: q.input.firstName }
            : q.input;
          if (!best || scored.weight > best.weight) best = { weight: scored.weight, levels: compare(query, candidate) };
        }
        if (best) pairs.push({ levels: best.levels, match: c.id === q.identityId });
      }
    });
  }
  return estimate(pairs, { shrinkTo: DEFAULT_MODEL, strength: SHRINK_STRENGTH });
}
