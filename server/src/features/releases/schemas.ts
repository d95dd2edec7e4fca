/** Bodies and params of /v2/releases, checked by the rules in common/deployments.ts and the semver package. */
import {
  COMMIT_PATTERN,
  RELEASE_LIMITS,
  RELEASE_MESSAGES,
  RELEASE_STATUSES,
  type Release,
} from '@tessera/common/deployments';
import { text } from '@tessera/common/schemas/fields';
import semver from 'semver';
import { z } from 'zod';

const version = z
  .string({ error: RELEASE_MESSAGES.version })
  .trim()
  .max(RELEASE_LIMITS.version, RELEASE_MESSAGES.version)
  .refine((v) => semver.valid(v) === v, RELEASE_MESSAGES.version);

const commit = z
  .string({ error: RELEASE_MESSAGES.commit })
  .trim()
  .transform((c) => c.toLowerCase())
  .refine((c) => COMMIT_PATTERN.test(c), RELEASE_MESSAGES.commit);

const notes = text({ error: RELEASE_MESSAGES.notes }).max(RELEASE_LIMITS.notes, RELEASE_MESSAGES.notes);

export const releaseBody = z.object({ version, commit, notes: notes.default('') }).strict();
export const releaseUpdateBody = z.object({ version, commit, notes }).partial().strict();

export const releaseParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const release = z.object({
  id: z.number(),
  version: z.string(),
  notes: z.string(),
  notesHtml: z.string(),
  commit: z.string(),
  artifact: z.string(),
  artifactSize: z.number(),
  artifactSha256: z.string(),
  status: z.enum(RELEASE_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
}) satisfies z.ZodType<Release>;

/** Replies: releases keyed by id; a deletion's items carry only id and deletedAt. */
export const releasesReply = z.object({ releases: z.record(z.string(), release) });
export const releasesDeletedReply = z.object({
  releases: z.record(z.string(), z.object({ id: z.number(), deletedAt: z.string() })),
});
