/**
 * The Fellegi-Sunter match model (docs/scoring.md). For each field and agreement level, m is the chance of that
 * level when query and candidate are the same person, u when they are not; the level adds log2(m/u) bits to the
 * match weight. The weights and the prior odds of a match give a probability, reported as a score 0-100.
 * `estimate` fits m and u from labelled pairs (the generator's query set); DEFAULT_MODEL holds starting values.
 */
import { compare, FIELDS, type Field, LEVELS, type Level, type PiiFields } from './comparisons';

export type Probabilities = Record<Field, Record<Exclude<Level, 'missing'>, number>>;

export interface MatchModel {
  m: Probabilities;
  u: Probabilities;
  /** Prior probability that a candidate found by blocking is the person sought. */
  prior: number;
}

const levels = (exact: number, alias: number, close: number, different: number) => ({ exact, alias, close, different });

/** Starting values, before estimation from data: typical of US person data. */
export const DEFAULT_MODEL: MatchModel = {
  m: {
    firstName: levels(0.8, 0.1, 0.07, 0.03),
    lastName: levels(0.9, 0.01, 0.06, 0.03),
    street: levels(0.75, 0.05, 0.1, 0.1),
    city: levels(0.85, 0.01, 0.06, 0.08),
    state: levels(0.95, 0.01, 0.01, 0.03),
    zip: levels(0.8, 0.01, 0.1, 0.09),
  },
  u: {
    firstName: levels(0.01, 0.005, 0.02, 0.965),
    lastName: levels(0.005, 0.001, 0.01, 0.984),
    street: levels(0.001, 0.001, 0.004, 0.994),
    city: levels(0.05, 0.001, 0.01, 0.939),
    state: levels(0.2, 0.001, 0.005, 0.794),
    zip: levels(0.01, 0.001, 0.05, 0.939),
  },
  prior: 0.01,
};

export interface Scored {
  /** 0-100. */
  score: number;
  /** Bits of evidence, prior included. */
  weight: number;
  /** Each field's level and the bits it added. */
  explain: Record<Field, { level: Level; weight: number }>;
}

export function score(model: MatchModel, levelsOf: Record<Field, Level>): Scored {
  let weight = Math.log2(model.prior / (1 - model.prior));
  const explain = {} as Scored['explain'];
  for (const field of FIELDS) {
    const level = levelsOf[field];
    const bits = level === 'missing' ? 0 : Math.log2(model.m[field][level] / model.u[field][level]);
    explain[field] = { level, weight: Math.round(bits * 100) / 100 };
    weight += bits;
  }
  const probability = 1 / (1 + 2 ** -weight);
  return { score: Math.round(probability * 100), weight: Math.round(weight * 100) / 100, explain };
}

/**
 * m and u from labelled pairs: the share of each level among true matches (m) and among non-matches (u), with
 * add-one smoothing so no level is impossible; the prior is the share of true matches. With `shrinkTo`, every
 * share is pulled toward that model's value as if `strength` more pairs had shown it: a generated set's few kinds
 * of noise must not convince the model that, say, streets never differ for the same person.
 */
export function estimate(
  pairs: { levels: Record<Field, Level>; match: boolean }[],
  shrink?: { shrinkTo: MatchModel; strength: number },
): MatchModel {
  const counts = (match: boolean) => {
    const out = {} as Probabilities;
    const subset = pairs.filter((p) => p.match === match);
    for (const field of FIELDS) {
      const seen = subset.filter((p) => p.levels[field] !== 'missing');
      const row = {} as Probabilities[Field];
      const used = LEVELS.filter((l): l is Exclude<Level, 'missing'> => l !== 'missing');
      for (const level of used) {
        const count = seen.filter((p) => p.levels[field] === level).length;
        row[level] = shrink
          ? (count + shrink.strength * shrink.shrinkTo[match ? 'm' : 'u'][field][level]) /
            (seen.length + shrink.strength)
          : (count + 1) / (seen.length + used.length);
      }
      out[field] = row;
    }
    return out;
  };
  const matches = pairs.filter((p) => p.match).length;
  return {
    m: counts(true),
    u: counts(false),
    prior: Math.min(0.99, Math.max(0.0001, (matches + 1) / (pairs.length + 2))),
  };
}

/** Bits taken off when the query's first and last names only match the other way round. */
export const SWAP_PENALTY = 1;

/**
 * A candidate's score for a PII query, taking first and last name swapped when that fits better (a common data
 * entry slip), at a small cost. Rank candidates by `weight`: scores are rounded and many strong matches reach 100.
 */
export function scoreCandidate(
  model: MatchModel,
  query: PiiFields,
  candidate: PiiFields,
): Scored & { swapped: boolean } {
  const straight = score(model, compare(query, candidate));
  const swappedQuery = { ...query, firstName: query.lastName, lastName: query.firstName };
  const turned = score(model, compare(swappedQuery, candidate));
  if (turned.weight - SWAP_PENALTY <= straight.weight) return { ...straight, swapped: false };
  const weight = turned.weight - SWAP_PENALTY;
  return { ...turned, weight, score: Math.round(100 / (1 + 2 ** -weight)), swapped: true };
}
