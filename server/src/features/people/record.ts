/**
 * The identity record: one person with everything linked to them, as the generator writes it (one JSON object
 * per line of people.jsonl), as the import reads it and as templates see it. docs/identity-record.md explains
 * it; docs/identity-record.schema.json is this schema as JSON Schema (record.test.ts keeps the two equal).
 */
import { z } from 'zod';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: 'ISO date, YYYY-MM-DD' });
const seen = {
  firstSeen: day.meta({ description: 'First day the record was seen (YYYY-MM-DD)' }),
  lastSeen: day.meta({ description: 'Last day the record was seen (YYYY-MM-DD)' }),
};

export const emailSchema = z.strictObject({
  address: z
    .string()
    .regex(/^[^\sA-Z@]+@[^\sA-Z@]+\.[^\sA-Z@]+$/)
    .meta({ description: 'Normalized: trimmed, lower case' }),
  ...seen,
});

export const phoneSchema = z.strictObject({
  number: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/)
    .meta({ description: 'E.164, e.g. +14155550123' }),
  type: z.enum(['mobile', 'landline']),
  carrier: z.string(),
  doNotCall: z.boolean().meta({ description: 'On the do-not-call registry' }),
  ...seen,
});

export const ipSchema = z.strictObject({
  ip: z.union([z.ipv4(), z.ipv6()]).meta({ description: 'IPv4 dotted quad or IPv6 in canonical (RFC 5952) form' }),
  ...seen,
});

export const deviceSchema = z.strictObject({
  deviceId: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    .meta({ description: 'Mobile advertising id, lower case with hyphens' }),
  type: z.enum(['idfa', 'aaid']).meta({ description: 'idfa: Apple; aaid: Android' }),
  ...seen,
});

export const vehicleSchema = z.strictObject({
  vin: z
    .string()
    .regex(/^[0-9A-HJ-NPR-Z]{17}$/)
    .meta({ description: '17 characters, upper case, valid check digit (position 9)' }),
  year: z.number().int().min(1900).max(2100).nullable().meta({ description: 'Model year' }),
  make: z.string(),
  model: z.string(),
  ...seen,
});

export const propertySchema = z.strictObject({
  type: z.string().meta({ description: "e.g. 'Single Family Residence', 'Condominium'" }),
  value: z.number().int().min(0).max(2_147_483_647).nullable().meta({ description: 'Estimated value in US dollars' }),
  ownerOccupied: z.boolean(),
  ...seen,
});

export const financesSchema = z
  .strictObject({
    income: z.string().meta({ description: "Household income range, e.g. '$50K-$75K'" }),
    netWorth: z.string().meta({ description: "Net worth range, e.g. '$100K-$250K'" }),
    credit: z.string().meta({ description: "Credit rating range, e.g. 'Good (670-739)'" }),
  })
  .nullable();

export const companySchema = z.strictObject({
  name: z.string(),
  domain: z.string().meta({ description: "The company's web domain, lower case" }),
  title: z.string().meta({ description: "The person's job title there" }),
  ...seen,
});

export const behaviorSchema = z.strictObject({
  category: z.string().meta({ description: "e.g. 'Interests', 'Purchases'" }),
  name: z.string(),
  ...seen,
});

export const identityRecordSchema = z
  .strictObject({
    id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ description: 'Identity id, unique in the graph' }),
    firstName: z.string(),
    middleName: z.string().meta({ description: "A name, an initial or ''" }),
    lastName: z.string(),
    suffix: z.string().meta({ description: "'Jr', 'Sr', 'II', 'III', 'IV' or ''" }),
    gender: z.enum(['F', 'M', '']).meta({ description: "'' when unknown" }),
    birthYear: z.number().int().min(1900).max(2100).nullable(),
    address: z.string().meta({ description: "Street address line with any unit: '1234 N Oak St Apt 4B'" }),
    city: z.string(),
    state: z
      .string()
      .regex(/^([A-Z]{2})?$/)
      .meta({ description: 'Two-letter USPS abbreviation' }),
    zip: z
      .string()
      .regex(/^(\d{5})?$/)
      .meta({ description: 'Five-digit ZIP code' }),
    zip4: z
      .string()
      .regex(/^(\d{4})?$/)
      .meta({ description: 'ZIP+4 add-on' }),
    ...seen,
    emails: z.array(emailSchema),
    phones: z.array(phoneSchema),
    ips: z.array(ipSchema),
    devices: z.array(deviceSchema),
    vehicles: z.array(vehicleSchema),
    properties: z.array(propertySchema),
    finances: financesSchema,
    companies: z.array(companySchema),
    behaviors: z.array(behaviorSchema),
    data: z.record(z.string(), z.string()).meta({
      description:
        'Demographic attributes, one value per key. A previous address, when known, is in previousAddress, previousCity, previousState and previousZip.',
    }),
  })
  .meta({
    title: 'Tessera identity record',
    description: 'One person (an identity) and the records linked to them.',
  });

export type IdentityRecord = z.infer<typeof identityRecordSchema>;
export type EmailRecord = z.infer<typeof emailSchema>;
export type PhoneRecord = z.infer<typeof phoneSchema>;
export type IpRecord = z.infer<typeof ipSchema>;
export type DeviceRecord = z.infer<typeof deviceSchema>;
export type VehicleRecord = z.infer<typeof vehicleSchema>;
export type PropertyRecord = z.infer<typeof propertySchema>;
export type FinancesRecord = NonNullable<z.infer<typeof financesSchema>>;
export type CompanyRecord = z.infer<typeof companySchema>;
export type BehaviorRecord = z.infer<typeof behaviorSchema>;

/** Keys of `data` that hold a person's previous address (the stale-address queries use it). */
export const PREVIOUS_ADDRESS_KEYS = {
  address: 'previousAddress',
  city: 'previousCity',
  state: 'previousState',
  zip: 'previousZip',
} as const;

/** The JSON Schema of the record (draft 2020-12), as published in docs/identity-record.schema.json. */
export function identityRecordJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(identityRecordSchema, { target: 'draft-2020-12' });
}
