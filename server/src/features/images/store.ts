/**
 * Uploaded pictures: the type is read from the bytes (never from the client's name or header), the name is the
 * content's SHA-256 plus the extension of that type, and SVG is refused (it can carry script).
 */
import { createHash } from 'node:crypto';
import { IMAGE_MAX_BYTES } from '@tessera/common/resources';
import { MESSAGES } from '@tessera/common/validation';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { images, users } from '../../db/schema';
import { BadRequest } from '../../http/errors';

export const IMAGE_MESSAGES = {
  missing: 'Attach the picture as a file field named "file".',
  tooLarge: MESSAGES.imageTooLarge(IMAGE_MAX_BYTES),
  badType: MESSAGES.imageType,
  malformed: 'The upload was cut off or is not well-formed multipart data. Please send the picture again.',
} as const;

const KINDS = [
  {
    type: 'image/png',
    ext: 'png',
    test: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')),
  },
  { type: 'image/jpeg', ext: 'jpg', test: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', ext: 'gif', test: (b: Buffer) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b: Buffer) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
] as const;

/** A stored picture's name: 43 base64url characters of SHA-256 and its extension. */
export const IMAGE_NAME = /^[A-Za-z0-9_-]{43}\.(png|jpg|gif|webp)$/;

export function sniffImage(bytes: Buffer): { type: string; ext: string } {
  const kind = KINDS.find((k) => bytes.length >= 12 && k.test(bytes));
  if (!kind) throw new BadRequest(IMAGE_MESSAGES.badType, [{ path: 'file', message: IMAGE_MESSAGES.badType }]);
  return kind;
}

/** Stores a picture once per content; returns its name. */
export async function storeImage(db: Executor, bytes: Buffer, uploadedBy: number): Promise<string> {
  const { type, ext } = sniffImage(bytes);
  const name = `${createHash('sha256').update(bytes).digest('base64url')}.${ext}`;
  await db.insert(images).values({ name, contentType: type, bytes, uploadedBy }).onConflictDoNothing();
  return name;
}

export async function readImage(db: Executor, name: string) {
  const [row] = await db
    .select({ contentType: images.contentType, bytes: images.bytes })
    .from(images)
    .where(eq(images.name, name))
    .limit(1);
  return row ?? null;
}

/** Deletes a stored picture that no user shows any more (after it was replaced or cleared). */
export async function dropUnusedImage(db: Executor, path: string): Promise<void> {
  const name = path.split('/').pop() ?? '';
  if (!IMAGE_NAME.test(name)) return;
  await db.execute(
    sql`delete from ${images} where ${images.name} = ${name} and not exists (select 1 from ${users} where ${users.image} = ${path})`,
  );
}
