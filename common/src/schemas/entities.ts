/** Zod schemas of the entities the server replies with; compile-time tied to the plain types in entities.ts. */
import { z } from 'zod';
import type { Organization, User } from '../entities';
import { ROLES } from '../roles';

export const roleSchema = z.enum(ROLES);

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  organizationId: z.number().int().nullable(),
  organizationName: z.string(),
  isActive: z.boolean(),
  title: z.string(),
  image: z.string(),
  allowedRecordTypes: z.array(z.string()),
  expires: z.number(),
  impersonator: z.number().int().optional(),
}) satisfies z.ZodType<User>;

export const organizationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  emailDomain: z.string().nullable(),
  acceptUsers: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable().optional(),
}) satisfies z.ZodType<Organization>;
