/** Request bodies of /v2/templates: every string through the shared text() rule, so NUL and the like are refused. */
import { optionalText, requiredText, text } from '@tessera/common/schemas/fields';
import { TEMPLATE_FORMATS } from '@tessera/common/templates';
import { MAX_LENGTH } from '@tessera/common/validation';
import { z } from 'zod';
import { TEMPLATE_LIMITS } from './evaluate';

export const TEMPLATE_FIELD_LIMITS = { description: 1000, adminIds: 100 } as const;

const id = z.number().int().positive().max(2_147_483_647);
const expression = requiredText('an expression', TEMPLATE_LIMITS.maxLength);

export const templateParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const createTemplateBody = z
  .object({
    name: requiredText('a name', MAX_LENGTH.name),
    description: optionalText('a description', TEMPLATE_FIELD_LIMITS.description).default(''),
    expression,
    adminIds: z.array(id).max(TEMPLATE_FIELD_LIMITS.adminIds).default([]),
    /** Super or higher only: another organization's template, or null for a system template. */
    organizationId: id.nullable().optional(),
  })
  .strict();

export const updateTemplateBody = z
  .object({
    name: requiredText('a name', MAX_LENGTH.name),
    description: optionalText('a description', TEMPLATE_FIELD_LIMITS.description),
    adminIds: z.array(id).max(TEMPLATE_FIELD_LIMITS.adminIds),
    /** The draft's expression: saving replaces the open draft. */
    expression,
  })
  .partial()
  .strict();

export const restoreBody = z.object({ version: id }).strict();

export const previewBody = z
  .object({
    expression,
    format: z.enum(TEMPLATE_FORMATS).default('json'),
    /** A real identity to render, looked up as byId (metered); without it a synthetic one (free). */
    sample: z
      .object({ identityId: z.union([text().trim().min(1).max(100), id]) })
      .strict()
      .optional(),
  })
  .strict();
