/**
 * One line of queries.jsonl: a lookup input with the identity it should find (or null when the person is not in
 * the graph), for measuring match quality. docs/identity-record.md describes the set.
 */
import { z } from 'zod';

export const EXACT_KINDS = ['email', 'md5', 'sha256', 'phone', 'ip', 'device', 'vin', 'id'] as const;
export type ExactKind = (typeof EXACT_KINDS)[number];

/** What was done to a noisy PII query's input, in the order it was done. */
export const PII_NOISE = [
  'staleAddress',
  'nickname',
  'typo',
  'swapped',
  'suffix',
  'missingUnit',
  'missingZip',
  'case',
] as const;
export type PiiNoise = (typeof PII_NOISE)[number];

/** How an exact key's input differs from the stored, normalized key. */
export const KEY_NOISE = ['case', 'spaces', 'format'] as const;
export type KeyNoise = (typeof KEY_NOISE)[number];

/** Why a negative query's person is not in the graph. */
export const NEGATIVE_KINDS = ['stranger', 'neighbour', 'namesake', 'unknownKey'] as const;
export type NegativeKind = (typeof NEGATIVE_KINDS)[number];

export const piiInputSchema = z.strictObject({
  firstName: z.string(),
  lastName: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  /** Absent when the query's noise removed it. */
  zip: z.string().optional(),
});
export type PiiInput = z.infer<typeof piiInputSchema>;

const exactInput = z.union(EXACT_KINDS.map((kind) => z.strictObject({ [kind]: z.string() })));

export const labelledQuerySchema = z.strictObject({
  id: z.number().int().min(1),
  kind: z.enum([...EXACT_KINDS, 'pii']),
  noise: z.array(z.enum([...new Set([...PII_NOISE, ...KEY_NOISE])])),
  input: z.union([piiInputSchema, exactInput]),
  identityId: z.number().int().min(1).nullable(),
  /** Only on negative queries (identityId null). */
  negative: z.enum(NEGATIVE_KINDS).optional(),
});
export type LabelledQuery = z.infer<typeof labelledQuerySchema>;
