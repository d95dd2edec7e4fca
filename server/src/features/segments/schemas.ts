/** Bodies and parameters of /v2/segments, read with common/segments.ts so the page and the server agree. */
import { text } from '@tessera/common/schemas/fields';
import { readSegmentFilters, SEGMENT_LIMITS, SEGMENT_MESSAGES, type SegmentFilters } from '@tessera/common/segments';
import { z } from 'zod';

/** The filters, or every problem at its path (`filters.states.0`). */
const filters = z.unknown().transform((raw, ctx): SegmentFilters => {
  const { value, problems } = readSegmentFilters(raw);
  for (const p of problems) ctx.addIssue({ code: 'custom', message: p.message, path: p.path.split('.').slice(1) });
  return value;
});

const name = text({ error: SEGMENT_MESSAGES.name })
  .trim()
  .min(1, SEGMENT_MESSAGES.name)
  .max(SEGMENT_LIMITS.nameMax, SEGMENT_MESSAGES.nameLength);

const organizationIds = z
  .array(z.number({ error: SEGMENT_MESSAGES.organizations }).int(SEGMENT_MESSAGES.organizations).positive(), {
    error: SEGMENT_MESSAGES.organizations,
  })
  .max(SEGMENT_LIMITS.organizationsMax, SEGMENT_MESSAGES.organizations)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

export const segmentBody = z.object({ name, filters, organizationIds: organizationIds.default([]) }).strict();
export const segmentChange = z.object({ name, filters, organizationIds }).partial().strict();
export const filtersBody = z.object({ filters }).strict();

export const segmentParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const exportQuery = z.object({
  template: z.coerce
    .number({ error: SEGMENT_MESSAGES.template })
    .int(SEGMENT_MESSAGES.template)
    .positive(SEGMENT_MESSAGES.template)
    .max(2_147_483_647, SEGMENT_MESSAGES.template)
    .optional(),
});
