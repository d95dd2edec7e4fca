/**
 * The identity record as lookups read it and templates see it: the imported record (people/record.ts) with each
 * e-mail's MD5 and SHA-256 added. Published as docs/lookup-record.schema.json; a test keeps the two equal and
 * checks real lookup results against it.
 */
import { z } from 'zod';
import { emailSchema, identityRecordSchema } from '../people/record';

const hex = (length: number, name: string) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${length}}$`))
    .meta({ description: `${name} of the address, lowercase hex` });

export const lookupRecordSchema = identityRecordSchema
  .extend({
    emails: z.array(emailSchema.extend({ md5: hex(32, 'MD5'), sha256: hex(64, 'SHA-256') })),
  })
  .meta({
    title: 'Tessera lookup record',
    description:
      'One identity as a lookup reads it and a template sees it. Record types the caller may not see are empty ([], null or {}).',
  });

export function lookupRecordJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(lookupRecordSchema, { target: 'draft-2020-12' });
}
