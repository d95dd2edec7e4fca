/** argon2id with the OWASP minimum (19 MiB, 2 iterations, 1 lane). */
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id; the enum is ambient and cannot be read under isolatedModules. */
const ARGON2ID = 2 as Algorithm;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/** A valid hash to verify against when no user matched, so a miss costs what a hit costs. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-Aa1!');
  return dummy;
}
