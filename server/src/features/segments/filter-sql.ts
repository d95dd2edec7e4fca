/**
 * A segment's filters as a condition on segment_attributes (alias `a`), its values as parameters: filters joined
 * with AND, the values of one filter with OR. Suppressed people are never members; suppressed e-mails and phones do
 * not count as having one (segment_attributes_refresh). Counts, previews and exports all read members through
 * membersWhere, so they cannot disagree.
 */
import {
  CREDIT_BANDS,
  FLAG_FILTERS,
  GENDERS,
  INCOME_BANDS,
  NET_WORTH_BANDS,
  SEGMENT_FLAG_BITS,
  type SegmentFilters,
} from '@tessera/common/segments';

/** Separates a behavior's category from its name in what segment_attributes.behaviors hashes. */
export const BEHAVIOR_SEPARATOR = '\u001f';

export const behaviorKey = (b: { category: string; name?: string }) =>
  b.name ? `${b.category}${BEHAVIOR_SEPARATOR}${b.name}` : b.category;

/** 1-based positions in a list, as segment_attributes stores bands and gender. */
const codes = (list: readonly string[], values: readonly string[]) => values.map((v) => list.indexOf(v) + 1);

/**
 * The condition and its parameters; `first` is the number of the first parameter ($first). Suppressed people have
 * no row in segment_attributes (segment_attributes_refresh), so nothing here needs to leave them out.
 */
export function membersWhere(f: SegmentFilters, first = 1, today = new Date()): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  const conditions: string[] = [];
  if (f.states?.length) conditions.push(`a.state = any(${p(f.states)}::text[])`);
  if (f.zipPrefixes?.length) {
    // Digits only (readSegmentFilters): nothing in them is a LIKE wildcard.
    conditions.push(`(${f.zipPrefixes.map((z) => `a.zip like ${p(`${z}%`)}`).join(' or ')})`);
  }
  const year = today.getUTCFullYear();
  if (f.ageMax !== undefined) conditions.push(`a.birth_year >= ${p(year - f.ageMax)}::int`);
  if (f.ageMin !== undefined) conditions.push(`a.birth_year <= ${p(year - f.ageMin)}::int`);
  const coded = (column: string, list: readonly string[], values: readonly string[] | undefined) => {
    if (values?.length) conditions.push(`a.${column} = any(${p(codes(list, values))}::smallint[])`);
  };
  coded(
    'gender',
    GENDERS.map((g) => g.value),
    f.genders,
  );
  coded('income', INCOME_BANDS, f.incomes);
  coded('net_worth', NET_WORTH_BANDS, f.netWorths);
  coded('credit', CREDIT_BANDS, f.credits);
  let mask = 0;
  let bits = 0;
  for (const flag of FLAG_FILTERS) {
    if (f[flag] === undefined) continue;
    mask |= SEGMENT_FLAG_BITS[flag];
    if (f[flag]) bits |= SEGMENT_FLAG_BITS[flag];
  }
  if (mask) conditions.push(`a.flags & ${p(mask)}::smallint = ${p(bits)}::smallint`);
  const hashed = (column: string, keys: string[]) =>
    conditions.push(`a.${column} && array(select hashtextextended(k, 0) from unnest(${p(keys)}::text[]) k)`);
  if (f.behaviors?.length) hashed('behaviors', f.behaviors.map(behaviorKey));
  if (f.companies?.length)
    hashed(
      'companies',
      f.companies.map((c) => c.toLowerCase()),
    );
  return { where: conditions.length > 0 ? conditions.join('\n  and ') : 'true', params };
}

/** select count(*) of the members. */
export function countSql(f: SegmentFilters, today?: Date): { text: string; params: unknown[] } {
  const { where, params } = membersWhere(f, 1, today);
  return { text: `select count(*)::int as count from segment_attributes a where ${where}`, params };
}

/** Member ids after `after`, in id order, at most `limit` (an export's next batch; a preview's first). */
export function pageSql(f: SegmentFilters, after: number, limit: number): { text: string; params: unknown[] } {
  const { where, params } = membersWhere(f, 3);
  return {
    text: `select a.identity_id as id from segment_attributes a where a.identity_id > $1::bigint and ${where}
      order by a.identity_id limit $2::int`,
    params: [String(after), limit, ...params],
  };
}
