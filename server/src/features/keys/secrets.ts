/**
 * A key's id and secret, drawn from a CSPRNG, and the two ways the server keeps a secret: its SHA-256 (enough to
 * check a plain Bearer key) and sealed with AES-256-GCM under the key-encryption key (needed to check a signature,
 * which is made with the secret itself). Decision 0015.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { KEY_ALPHABET, KEY_ID_LENGTH, KEY_SECRET_LENGTH } from '@tessera/common/keys';
import type { Database } from '../../db/client';

/** `length` characters of the key alphabet, each uniformly drawn. */
function randomText(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return out;
}

export const newKeyId = () => randomText(KEY_ID_LENGTH);
export const newSecret = () => randomText(KEY_SECRET_LENGTH);

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export interface Sealer {
  seal(secret: string): Promise<string>;
  /** The secret, or null when it was sealed under another key-encryption key. */
  open(sealed: string): Promise<string | null>;
}

/** Sealed text: `{kek id}.{iv}.{tag}.{ciphertext}`, base64url; the kek id tells a changed KEY_ENCRYPTION_KEY apart. */
export function createSealer(kek: Buffer) {
  const kekId = sha256Hex(kek.toString('base64')).slice(0, 8);
  return {
    seal(secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', kek, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [kekId, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed: string): string | null {
      const [id, iv, tag, body] = sealed.split('.');
      if (id !== kekId || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', kek, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/**
 * A sealer whose key-encryption key is read on first use (building the app touches no table), once; a failed read
 * is tried again on the next use.
 */
export function lazySealer(load: () => Promise<Buffer>): Sealer {
  let ready: Promise<ReturnType<typeof createSealer>> | null = null;
  const sealer = () => {
    ready ??= load().then(createSealer, (error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
  return {
    seal: async (secret) => (await sealer()).seal(secret),
    open: async (sealed) => (await sealer()).open(sealed),
  };
}

const KEK_NAME = 'key-encryption-key';

/**
 * The configured key-encryption key, or else the one kept in the database (made by whichever process asks first),
 * so every process of one deployment seals and opens alike.
 */
export async function loadKeyEncryptionKey(database: Database, configured: Buffer | null): Promise<Buffer> {
  if (configured) return configured;
  await database.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    KEK_NAME,
    randomBytes(32).toString('base64'),
  ]);
  const [row] = await database.query<{ value: string }>('select value from server_secrets where name = $1', [KEK_NAME]);
  return Buffer.from(row!.value, 'base64');
}
