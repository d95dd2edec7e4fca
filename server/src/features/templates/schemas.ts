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

// Descriptions (.meta) only inform the OpenAPI document; they change no rule.
const described = {
  name: "The template's name.",
  description: 'What it is for.',
  expression: `A JSONata expression over the lookup record (at most ${TEMPLATE_LIMITS.maxLength} characters) giving the fields of each identity.`,
  adminIds: `Users and organizations (ids) that may edit it besides its organization's administrators (at most ${TEMPLATE_FIELD_LIMITS.adminIds}).`,
} as const;

export const createTemplateBody = z
  .object({
    name: requiredText('a name', MAX_LENGTH.name).meta({ description: described.name }),
    description: optionalText('a description', TEMPLATE_FIELD_LIMITS.description)
      .default('')
      .meta({ description: described.description }),
    expression: expression.meta({ description: `${described.expression} Saved as the first draft.` }),
    adminIds: z.array(id).max(TEMPLATE_FIELD_LIMITS.adminIds).default([]).meta({ description: described.adminIds }),
    /** Super or higher only: another organization's template, or null for a system template. */
    organizationId: id.nullable().optional().meta({
      description:
        "Super and root only: another organization's id, or null for a system template. Default: your organization.",
    }),
  })
  .strict();

export const updateTemplateBody = z
  .object({
    name: requiredText('a name', MAX_LENGTH.name).meta({ description: described.name }),
    description: optionalText('a description', TEMPLATE_FIELD_LIMITS.description).meta({
      description: described.description,
    }),
    adminIds: z.array(id).max(TEMPLATE_FIELD_LIMITS.adminIds).meta({ description: described.adminIds }),
    /** The draft's expression: saving replaces the open draft. */
    expression: expression.meta({ description: `${described.expression} Saved as the draft, replacing the open one.` }),
  })
  .partial()
  .strict();

export const restoreBody = z
  .object({ version: id.meta({ description: 'The published version whose expression becomes the draft.' }) })
  .strict();

export const previewBody = z
  .object({
    expression: expression.meta({ description: described.expression }),
    format: z.enum(TEMPLATE_FORMATS).default('json').meta({ description: 'Render as json or csv.' }),
    /** A real identity to render, looked up as byId (metered); without it a synthetic one (free). */
    sample: z
      .object({
        identityId: z
          .union([text().trim().min(1).max(100), id])
          .meta({ description: 'A Tessera identity id, as text or a number.' }),
      })
      .strict()
      .optional()
      .meta({
        description:
          'A real identity to render, looked up as byId (metered and charged); without it a synthetic one (free).',
      }),
  })
  .strict();
