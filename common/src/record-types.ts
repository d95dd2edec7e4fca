/**
 * The record types linked to an identity (spec §3 usage metrics count each of them). A user or key can be limited
 * to some of them through allowedRecordTypes; an empty list means all.
 */
export const RECORD_TYPES = [
  'behaviors',
  'data',
  'devices',
  'emails',
  'ips',
  'phones',
  'properties',
  'vehicles',
  'finances',
  'companies',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export function isRecordType(value: unknown): value is RecordType {
  return typeof value === 'string' && (RECORD_TYPES as readonly string[]).includes(value);
}
