/**
 * How a value becomes suppression rows (decision 0039). An e-mail is stored as its SHA-256 only: the lookups leave out
 * an address whose address, MD5 or SHA-256 is suppressed, so its hash is enough and the list keeps no address. A
 * search by e-mail looks for all three forms (older rows may hold the address).
 */
import { createHash } from 'node:crypto';
import type { SuppressionKey } from '@tessera/common/stewardship';

const digest = (algorithm: 'md5' | 'sha256', value: string) => createHash(algorithm).update(value).digest('hex');

/** The row a value is stored as. */
export function storedKey(key: SuppressionKey): SuppressionKey {
  return key.kind === 'email' ? { kind: 'sha256', value: digest('sha256', key.value) } : key;
}

/** Every row that suppresses this value. */
export function searchedKeys(key: SuppressionKey): SuppressionKey[] {
  if (key.kind !== 'email') return [key];
  return [
    key,
    { kind: 'md5', value: digest('md5', key.value) },
    { kind: 'sha256', value: digest('sha256', key.value) },
  ];
}
