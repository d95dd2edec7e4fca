/**
 * Checks an API key without a database round trip once it is known: each process keeps what it read of a key (its
 * secret's hash, its sealed secrets opened, its settings and its user's standing) for a minute, and forgets it as
 * soon as any process changes or revokes the key or its user (a fan-out message, through Redis when configured).
 */
import { BlockList, isIPv4 } from 'node:net';
import { KEY_MESSAGES, type KeyMode } from '@tessera/common/keys';
import { isRecordType } from '@tessera/common/record-types';
import { hasRank, type Role } from '@tessera/common/roles';
import type { Database } from '../../db/client';
import { Forbidden, Unauthorized } from '../../http/errors';
import type { Fanout } from '../../socket/fanout';
import { type Credential, legacySignature, legacyTimeFits, signature, signedTimeFits } from './credentials';
import { type Sealer, sameDigest, sha256Hex } from './secrets';

export interface VerifiedKey {
  keyId: string;
  userId: number;
  organizationId: number | null;
  role: Role;
  /** The key's record types within its user's; empty: all; a list of no record type: none. */
  allowedRecordTypes: string[];
  rateLimit: number | null;
  mode: KeyMode;
  /** The permissible purpose a call names when it names none (issue 34). */
  defaultPurpose: string | null;
}

interface Known {
  id: string;
  userId: number;
  organizationId: number | null;
  secretSha256: string;
  secret: string | null;
  previousSha256: string | null;
  previous: string | null;
  previousValidUntil: number;
  expiresAt: number | null;
  allowlist: BlockList | null;
  rateLimit: number | null;
  keyTypes: string[];
  legacy: boolean;
  mode: KeyMode;
  defaultPurpose: string | null;
  user: { role: Role; active: boolean; organizationId: number | null; types: string[] };
}

interface KeyRowWithUser {
  id: string;
  user_id: number;
  organization_id: number | null;
  secret_sha256: string;
  secret_sealed: string;
  previous_sha256: string | null;
  previous_sealed: string | null;
  previous_valid_until: Date | string | null;
  expires_at: Date | string | null;
  ip_allowlist: string[];
  rate_limit: number | null;
  allowed_record_types: string[];
  legacy: boolean;
  mode: KeyMode;
  default_purpose: string | null;
  role: Role;
  active: boolean;
  user_organization_id: number | null;
  user_types: string[];
}

const LOAD = `select k.id, k.user_id, k.organization_id, k.secret_sha256, k.secret_sealed, k.previous_sha256,
  k.previous_sealed, k.previous_valid_until, k.expires_at, k.ip_allowlist, k.rate_limit, k.allowed_record_types,
  k.legacy, k.mode, k.default_purpose, u.role, (u.is_active and u.deleted_at is null) as active, u.organization_id as user_organization_id,
  u.allowed_record_types as user_types
from api_keys k join users u on u.id = k.user_id where k.id = $1 and k.deleted_at is null`;

const KNOWN_MS = 60_000;
const UNKNOWN_MS = 10_000;
const MAX_ENTRIES = 100_000;

const time = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());

function allowlist(ranges: string[]): BlockList | null {
  if (ranges.length === 0) return null;
  const list = new BlockList();
  for (const range of ranges) {
    const [address, bits] = range.split('/');
    list.addSubnet(address!, Number(bits), isIPv4(address!) ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** The record types a key passes on: the key's within its user's (empty meaning all at either level). */
export function keyRecordTypes(userTypes: string[], keyTypes: string[]): string[] {
  const user = userTypes.filter(isRecordType);
  if (keyTypes.length === 0) return userTypes;
  if (userTypes.length === 0) return keyTypes;
  const both = keyTypes.filter((t) => user.includes(t as never));
  return both.length > 0 ? both : ['none'];
}

export interface KeyVerifier {
  verify(credential: Credential, ip: string): Promise<VerifiedKey>;
  /** Forget a key here and in every other process. */
  changed(keyId: string): Promise<void>;
  /** Forget a user's keys here and in every other process. */
  userChanged(userId: number): Promise<void>;
}

export function createKeyVerifier(deps: {
  database: Database;
  fanout: Fanout;
  sealer: Sealer;
  now?: () => number;
}): KeyVerifier {
  const { database, fanout, sealer } = deps;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { known: Known | null; until: number }>();
  const loading = new Map<string, Promise<Known | null>>();
  /** Bumped by every forget, so a read begun before a change is never cached after it. */
  let generation = 0;

  function forget(keyId: string): void {
    generation++;
    cache.delete(keyId);
  }

  fanout.onMessage((message) => {
    if (message.kind === 'keyChanged') forget(message.keyId);
    else if (message.kind === 'userChanged') {
      generation++;
      for (const [id, entry] of cache) if (entry.known?.userId === message.userId) cache.delete(id);
    }
  });

  async function read(id: string): Promise<Known | null> {
    const [row] = await database.query<KeyRowWithUser>(LOAD, [id], { prepare: true });
    if (!row) return null;
    return {
      id: row.id,
      userId: row.user_id,
      organizationId: row.organization_id,
      secretSha256: row.secret_sha256,
      secret: await sealer.open(row.secret_sealed),
      previousSha256: row.previous_sha256,
      previous: row.previous_sealed ? await sealer.open(row.previous_sealed) : null,
      previousValidUntil: time(row.previous_valid_until) ?? 0,
      expiresAt: time(row.expires_at),
      allowlist: allowlist(row.ip_allowlist),
      rateLimit: row.rate_limit,
      keyTypes: row.allowed_record_types,
      legacy: row.legacy,
      mode: row.mode,
      defaultPurpose: row.default_purpose,
      user: {
        role: row.role,
        active: row.active,
        organizationId: row.user_organization_id,
        types: row.user_types,
      },
    };
  }

  async function lookup(id: string): Promise<Known | null> {
    const hit = cache.get(id);
    if (hit && hit.until > now()) return hit.known;
    let pending = loading.get(id);
    if (!pending) {
      const started = generation;
      pending = read(id).finally(() => loading.delete(id));
      loading.set(id, pending);
      const known = await pending;
      if (generation === started) {
        if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
        cache.set(id, { known, until: now() + (known ? KNOWN_MS : UNKNOWN_MS) });
      }
      return known;
    }
    return pending;
  }

  /** Whether the credential proves the secret (or, during a rotation's grace, the previous one). */
  function proves(key: Known, credential: Credential, at: number): boolean {
    const secrets: { sha: string; plain: string | null }[] = [{ sha: key.secretSha256, plain: key.secret }];
    if (key.previousSha256 && key.previousValidUntil > at)
      secrets.push({ sha: key.previousSha256, plain: key.previous });
    if (credential.form === 'bearer') return secrets.some((s) => sameDigest(sha256Hex(credential.secret), s.sha));
    if (credential.form === 'signed') {
      if (!signedTimeFits(credential.time, at)) throw new Unauthorized(KEY_MESSAGES.staleTime);
      return secrets.some(
        (s) => s.plain !== null && sameDigest(signature(s.plain, credential.time), credential.signature),
      );
    }
    if (!key.legacy) throw new Unauthorized(KEY_MESSAGES.legacyOff);
    if (!legacyTimeFits(credential.time, at)) throw new Unauthorized(KEY_MESSAGES.staleTime);
    return secrets.some(
      (s) => s.plain !== null && sameDigest(legacySignature(s.plain, credential.time), credential.signature),
    );
  }

  return {
    async verify(credential, ip) {
      const key = await lookup(credential.keyId);
      if (!key) throw new Unauthorized(KEY_MESSAGES.unknown);
      const at = now();
      const proven = proves(key, credential, at);
      if (!proven)
        throw new Unauthorized(credential.form === 'bearer' ? KEY_MESSAGES.unknown : KEY_MESSAGES.badSignature);
      // Only a holder of the secret learns anything more about the key.
      if (credential.test !== (key.mode === 'test')) {
        throw new Unauthorized(credential.test ? KEY_MESSAGES.notATestKey : KEY_MESSAGES.testPrefixMissing);
      }
      if (key.expiresAt !== null && key.expiresAt <= at) throw new Unauthorized(KEY_MESSAGES.expired);
      if (!key.user.active || !hasRank(key.user.role, 'user')) throw new Forbidden(KEY_MESSAGES.userInactive);
      if (key.user.organizationId !== key.organizationId) throw new Forbidden(KEY_MESSAGES.userMoved);
      const address = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
      if (key.allowlist && !key.allowlist.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')) {
        throw new Forbidden(KEY_MESSAGES.ipRefused(ip));
      }
      return {
        keyId: key.id,
        userId: key.userId,
        organizationId: key.organizationId,
        role: key.user.role,
        allowedRecordTypes: keyRecordTypes(key.user.types, key.keyTypes),
        rateLimit: key.rateLimit,
        mode: key.mode,
        defaultPurpose: key.defaultPurpose,
      };
    },
    async changed(keyId) {
      forget(keyId);
      await fanout.publish({ kind: 'keyChanged', keyId });
    },
    async userChanged(userId) {
      await fanout.publish({ kind: 'userChanged', userId });
    },
  };
}
