/**
 * The keyed hash of the lookup audit trail (decision 0039): HMAC-SHA256 under a 256-bit secret kept in
 * server_secrets (made by whichever process asks first, so every process of a deployment hashes alike). Without the
 * secret the trail cannot be searched by hashing guesses. Values are hashed by kind ('phone:+15551234567'); an
 * e-mail by its MD5 and SHA-256 forms, so a lookup by address, by MD5 or by SHA-256 is found by any of the three.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { LookupKey } from '@tessera/common/lookup-inputs';
import type { Database } from '../../db/client';

const SECRET_NAME = 'lookup-audit-key';

export type ValueHasher = (kind: string, value: string) => string;

async function loadSecret(database: Database): Promise<Buffer> {
  await database.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    SECRET_NAME,
    randomBytes(32).toString('base64'),
  ]);
  const [row] = await database.query<{ value: string }>('select value from server_secrets where name = $1', [
    SECRET_NAME,
  ]);
  return Buffer.from(row!.value, 'base64');
}

/** The hasher, its secret read on first use and kept; a failed read is tried again next time. */
export function lazyValueHasher(database: Database): () => Promise<ValueHasher> {
  let ready: Promise<ValueHasher> | null = null;
  return () => {
    ready ??= loadSecret(database).then(
      (secret) => (kind, value) => createHmac('sha256', secret).update(`${kind}:${value}`).digest('hex'),
      (error: unknown) => {
        ready = null;
        throw error;
      },
    );
    return ready;
  };
}

const digest = (algorithm: 'md5' | 'sha256', value: string) => createHash(algorithm).update(value).digest('hex');

/** The hashes one normalized lookup key is recorded (and searched) under. */
export function keyHmacs(hash: ValueHasher, kind: LookupKey | 'pii', value: string): string[] {
  if (kind === 'email') return [hash('md5', digest('md5', value)), hash('sha256', digest('sha256', value))];
  return [hash(kind, value)];
}
