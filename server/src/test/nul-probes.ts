/**
 * Requests with a NUL byte in exactly one field, made from a route's JSON Schemas: a baseline value for each part
 * (required fields only, from `hint` by field name where the test knows a real value, else from the schema), and
 * one variant per string field of the body (nested ones and array items included), per query parameter and per
 * path parameter, with that field's value holding a NUL.
 */
import { randomUUID } from 'node:crypto';
import type { Json } from './route-catalog';

export const NUL = '\u0000';

/** A value with a NUL inside it (after its first character, so a prefix check still sees the start). */
export const withNul = (value: unknown): string => {
  const text = value === undefined || value === null || typeof value === 'object' ? '' : String(value);
  return `${text.slice(0, 1)}${NUL}${text.slice(1)}`;
};

/** A real value for a field by its name, or undefined to make one from the schema. */
export type Hint = (name: string) => unknown;

const typesOf = (schema: Json): string[] => [schema.type ?? []].flat();
const branchesOf = (schema: Json): Json[] => schema.anyOf ?? schema.oneOf ?? [];

/** A value the schema accepts, as far as its JSON Schema says (hints cover the rules it cannot express). */
export function sample(schema: Json, name: string, hint: Hint): unknown {
  const hinted = hint(name);
  if (hinted !== undefined) return hinted;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branches = branchesOf(schema);
  if (branches.length > 0) return sample(branches.find((b) => b.type !== 'null') ?? branches[0]!, name, hint);
  const types = typesOf(schema);
  if (types.includes('object') || schema.properties) return requiredOf(schema, hint);
  if (types.includes('array')) return schema.minItems > 0 ? [sample(schema.items ?? {}, name, hint)] : [];
  if (types.includes('string')) {
    if (schema.format === 'email') return `sweep-${randomUUID()}@sweep.example`;
    if (schema.format === 'uuid') return randomUUID();
    if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
    return 'sweep'.padEnd(schema.minLength ?? 0, 'x');
  }
  if (types.includes('integer') || types.includes('number')) {
    return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
  }
  if (types.includes('boolean')) return false;
  return null;
}

/** An object of the schema's required properties. */
export function requiredOf(schema: Json, hint: Hint): Json {
  const required: string[] = schema.required ?? [];
  return Object.fromEntries(required.map((p) => [p, sample(schema.properties?.[p] ?? {}, p, hint)]));
}

export interface Variant {
  /** The field's path inside the part, e.g. `inputs.0.firstName`. */
  at: string[];
  value: unknown;
}

const takesString = (schema: Json): boolean =>
  typesOf(schema).includes('string') || branchesOf(schema).some((b) => takesString(b));

/** The schema's values with a NUL in one string field each; `base` is the object they start from. */
export function variants(schema: Json, name: string, hint: Hint, base?: unknown): Variant[] {
  const branches = branchesOf(schema);
  if (branches.length > 0) {
    const seen = new Set<string>();
    return branches
      .flatMap((b) => variants(b, name, hint, base))
      .filter((v) => !seen.has(v.at.join('.')) && seen.add(v.at.join('.')));
  }
  const types = typesOf(schema);
  if (types.includes('object') || schema.properties) {
    const own = (base ?? requiredOf(schema, hint)) as Json;
    const out: Variant[] = [];
    for (const [property, child] of Object.entries((schema.properties ?? {}) as Json)) {
      for (const v of variants(child, property, hint))
        out.push({ at: [property, ...v.at], value: { ...own, [property]: v.value } });
    }
    if (schema.additionalProperties && takesString(schema.additionalProperties)) {
      out.push({ at: ['sweep'], value: { ...own, sweep: withNul('sweep') } });
    }
    return out;
  }
  if (types.includes('array')) {
    return variants(schema.items ?? {}, name, hint).map((v) => ({ at: ['0', ...v.at], value: [v.value] }));
  }
  if (takesString(schema)) return [{ at: [], value: withNul(sample(schema, name, hint)) }];
  return [];
}
