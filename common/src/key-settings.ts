/**
 * API key settings the console and the server agree on (issue 15): the address of a key page, the IP allowlist
 * rule, and the states a key is shown in. Key ids are 16 letters and digits (common/keys.ts), not numbers, so
 * the keys page reads its own addresses with the §2 resource pattern otherwise unchanged.
 */
import type { ApiKey, User } from './entities';
import { KEY_ID_LENGTH } from './keys';
import { hasRank } from './roles';

const KEY_ID = new RegExp(`^[A-Za-z0-9]{${KEY_ID_LENGTH}}$`);

export const isKeyId = (value: string): boolean => KEY_ID.test(value);

export interface KeyResource {
  mode: 'create' | 'view' | 'edit' | 'delete';
  ids: string[];
}

/** `/keys/add`, `/keys/{id}`, `/keys/edit/{id}`, `/keys/delete/{id},{id}…`; anything else is null (not found). */
export function parseKeyResource(first: string | undefined, second?: string): KeyResource | null {
  if (first === undefined) return null;
  const list = (value: string) => {
    const ids = value.split(',');
    return ids.every(isKeyId) ? ids : null;
  };
  if (second === undefined) {
    if (first === 'add') return { mode: 'create', ids: [] };
    const ids = list(first);
    return ids ? { mode: 'view', ids } : null;
  }
  if (first === 'add' && second === 'add') return { mode: 'create', ids: [] };
  if (first !== 'edit' && first !== 'delete') return null;
  const ids = list(second);
  if (!ids || (first === 'edit' && ids.length !== 1)) return null;
  return { mode: first, ids };
}

const IPV4_PART = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${IPV4_PART}(\\.${IPV4_PART}){3}$`);

function isIpv6(value: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(value) || value.includes(':::')) return false;
  let groups = value.split(':');
  // An embedded IPv4 address at the end counts as two groups.
  const last = groups[groups.length - 1] ?? '';
  if (last.includes('.')) {
    if (!IPV4.test(last)) return false;
    groups = [...groups.slice(0, -1), '0', '0'];
  }
  const gaps = value.split('::').length - 1;
  if (gaps > 1) return false;
  if (gaps === 0) return groups.length === 8 && groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g));
  const [head = '', tail = ''] = groups.join(':').split('::');
  const parts = [...(head ? head.split(':') : []), ...(tail ? tail.split(':') : [])];
  return parts.length <= 7 && parts.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g));
}

/** 4 or 6 for an IPv4 or IPv6 address, else 0 (as node:net isIP, which the server's schema uses). */
export function ipFamily(value: string): 0 | 4 | 6 {
  if (IPV4.test(value)) return 4;
  return isIpv6(value) ? 6 : 0;
}

/** An address or CIDR range written `address/bits`, normalized; a lone address is a range of one; null if neither. */
export function normalizeCidr(value: string): string | null {
  const [address = '', bits, extra] = value.trim().split('/');
  const family = ipFamily(address);
  if (!family || extra !== undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (bits === undefined) return `${address.toLowerCase()}/${max}`;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return `${address.toLowerCase()}/${Number(bits)}`;
}

/** The entries of an allowlist typed one a line (commas and spaces also separate). */
export function splitAllowlist(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** A key as the console lists it: with its use when the server tells it. */
export type KeyEntry = ApiKey & { lastUsedAt?: string | null; callsThisMonth?: number };

export type KeyState = 'active' | 'expiring soon' | 'expired' | 'in grace' | 'revoked' | 'legacy-signed' | 'test';

/** A key expiring within this is 'expiring soon'. */
export const EXPIRING_SOON_MS = 7 * 24 * 3600_000;

/** Every state a key is in, the main one first. */
export function keyStates(key: KeyEntry, now: number = Date.now()): KeyState[] {
  if (key.deletedAt) return ['revoked'];
  const states: KeyState[] = [];
  const expires = key.expiresAt ? Date.parse(key.expiresAt) : null;
  if (expires !== null && expires <= now) states.push('expired');
  else {
    states.push('active');
    if (expires !== null && expires - now <= EXPIRING_SOON_MS) states.push('expiring soon');
  }
  if (key.previousValidUntil && Date.parse(key.previousValidUntil) > now) states.push('in grace');
  if (key.legacy) states.push('legacy-signed');
  if (key.mode === 'test') states.push('test');
  return states;
}

/** The choices of grace after a rotation, in seconds. */
export const GRACE_CHOICES = [
  { seconds: 0, label: 'None: the old secret stops at once' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 24 * 3600, label: '24 hours' },
  { seconds: 7 * 24 * 3600, label: '7 days' },
] as const;

/** Whether `self` sees the keys of a user (as the server's canManageKey): their own, an administrator their organization's, super+ all. */
export function seesKeysOf(
  self: Pick<User, 'id' | 'role' | 'organizationId'>,
  owner: { id: number; organizationId: number | null },
): boolean {
  if (self.id === owner.id || hasRank(self.role, 'super')) return true;
  return hasRank(self.role, 'admin') && self.organizationId !== null && owner.organizationId === self.organizationId;
}

/** Whether `self` sees an organization's keys. */
export function seesOrganizationKeys(self: Pick<User, 'role' | 'organizationId'>, organizationId: number): boolean {
  return hasRank(self.role, 'super') || (hasRank(self.role, 'admin') && self.organizationId === organizationId);
}
