import { z } from 'zod';
import * as inputsModule from '../identities/inputs';

/** The document's version: a breaking change needs a new major version and a note in docs/api-changes.md. */
export const API_VERSION = '2.1.0';

/** Where the published copy (docs/openapi.json) says the API is; a server's own document names its PUBLIC_URL. */
export const PUBLISHED_SERVER = 'http://localhost:3000';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are JSON of any shape
export type Json = Record<string, any>;

/** A real request and its reply for one operation, captured by conformance.test.ts (UPDATE_OPENAPI=1). */
export interface CapturedExample {
  request: { query?: Record<string, string>; body?: unknown; csv?: string };
  status: number;
  json?: unknown;
  csv?: string;
  /** The same request answered as CSV (`format=csv`), for operations that answer both. */
  csvReply?: string;
}
export interface Examples {
  operations: Record<string, CapturedExample>;
  /** One real error reply per status. */
  errors: Record<string, unknown>;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const response = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** JSON Schema of a zod schema, as OpenAPI 3.1 takes it (draft 2020-12). */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

/** The zod schemas identities/inputs.ts exports for extra fields of a POST input (e.g. `metadata`), by field. */
export function inputExtras(): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const [name, value] of Object.entries(inputsModule as Record<string, unknown>)) {
    if (!(value instanceof z.ZodType)) continue;
    const field = /^(\w+?)(Schema)?$/.exec(name)?.[1];
    if (field && /metadata/i.test(field)) out.metadata = value;
  }
  return out;
}
