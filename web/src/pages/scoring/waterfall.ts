/**
 * The arithmetic of the score waterfall (docs/scoring.md): the prior odds and each field's bits (log2 m/u) add up
 * to the match weight W, and the score is round(100 / (1 + 2^-W)). The page draws the score as it builds up field
 * by field: each step's share is the rise (or fall) of the rounded score when that field's bits are added, and
 * the last step lands on the score the API returned, so the bars always add up to it.
 */

/** A PII match's evidence as `explain=true` returns it. */
export interface PiiExplain {
  weight: number;
  probability?: number;
  swapped?: boolean;
  home?: string;
  fields: Record<string, { level: string; weight: number }>;
}

export interface ExplainedIdentity {
  score: number;
  id?: number;
  explain?: { pii?: PiiExplain | null; keys?: unknown[] };
  [field: string]: unknown;
}

export interface Step {
  /** 'prior', a field name, or 'swap'. */
  key: string;
  label: string;
  /** Bits this step adds to the weight (the prior's own bits for the first step). */
  bits: number;
  /** Score before and after this step (0-100, whole points). */
  from: number;
  to: number;
  /** to - from. */
  delta: number;
}

/** Bits of the prior odds that a blocked candidate is the person sought. */
export const priorBits = (prior: number): number => Math.log2(prior / (1 - prior));

/** The score of a weight W: 100 × the probability 1 / (1 + 2^-W), unrounded. */
export const scoreOf = (weight: number): number => 100 / (1 + 2 ** -weight);

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The steps from the prior to `score`, fields in `order` (those the reply lacks are left out). A swapped match
 * gets a step for its penalty: the rest of the returned weight once the prior and the fields are counted.
 */
export function waterfall(
  pii: PiiExplain,
  score: number,
  prior: number,
  order: readonly string[],
  labels: Record<string, string> = {},
): Step[] {
  const steps: Step[] = [];
  let weight = priorBits(prior);
  let at = Math.round(scoreOf(weight));
  steps.push({ key: 'prior', label: labels.prior ?? 'Prior odds', bits: round2(weight), from: 0, to: at, delta: at });
  const parts: { key: string; bits: number }[] = order
    .filter((field) => pii.fields[field])
    .map((field) => ({ key: field, bits: pii.fields[field]?.weight ?? 0 }));
  if (pii.swapped) {
    const counted = weight + parts.reduce((sum, p) => sum + p.bits, 0);
    parts.push({ key: 'swap', bits: round2(pii.weight - counted) });
  }
  parts.forEach((part, i) => {
    weight += part.bits;
    // The last step lands on the returned score: the fields' bits are rounded to 0.01 in the reply.
    const to = i === parts.length - 1 ? score : Math.round(scoreOf(weight));
    steps.push({ key: part.key, label: labels[part.key] ?? part.key, bits: part.bits, from: at, to, delta: to - at });
    at = to;
  });
  return steps;
}

/** What the bars add up to: the prior's score plus every field's rise or fall. */
export const total = (steps: readonly Step[]): number => steps.reduce((sum, s) => sum + s.delta, 0);

/** The top identity of a byPii reply that carries PII evidence, or null. */
export function topExplained(reply: unknown): (ExplainedIdentity & { explain: { pii: PiiExplain } }) | null {
  const identities = (reply as { identities?: ExplainedIdentity[] } | null)?.identities ?? [];
  const top = identities.find((i) => i && typeof i.score === 'number' && i.explain?.pii?.fields);
  return (top as (ExplainedIdentity & { explain: { pii: PiiExplain } }) | undefined) ?? null;
}
