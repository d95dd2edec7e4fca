/**
 * The identity schemas of the document (issue 31 item 4, decision 0058): the Full template's identity (the default)
 * typed field by field, `explain` typed as the engine makes it (identities/engine.ts, scoring/), and identities shaped
 * by any other template declared apart, open. A reply's identities are never a union of the two: a generated client
 * would see every field as unknown.
 */
import { KEY_NORMALIZERS } from '@tessera/common/lookup-inputs';
import { lookupRecordSchema } from '../identities/lookup-record';
import { FIELDS, LEVELS } from '../scoring/comparisons';
import { inputExtras, type Json, ref, schemaOf } from './base';
import { REQUEST_ID_SCHEMA } from './http-parts';

const probability = (words: string): Json => ({ type: 'number', minimum: 0, maximum: 1, description: words });

/** `explain` as engine.ts makes it (Match['explain']); closed, so a new field fails conformance until it is here. */
export const EXPLAIN_SCHEMAS: Record<string, Json> = {
  Explain: {
    type: 'object',
    description:
      'With explain=true: the evidence behind the score (docs/scoring.md). `keys`: each exact key that matched; `pii`: the name-and-address comparison, when one was made.',
    required: ['keys'],
    properties: {
      keys: { type: 'array', items: ref('KeyEvidence'), description: 'Each exact key that matched this person.' },
      pii: ref('PiiEvidence'),
    },
    additionalProperties: false,
  },
  KeyEvidence: {
    type: 'object',
    description: 'One exact key that matched: how strong it is, how recent, and how many people share it.',
    required: ['input', 'strength', 'lastSeen', 'recency', 'sharedBy', 'probability'],
    properties: {
      input: { type: 'string', enum: Object.keys(KEY_NORMALIZERS), description: 'The key that matched.' },
      strength: probability('How often this kind of key, when it matches, is the same person.'),
      lastSeen: {
        type: ['string', 'null'],
        description: 'When the person was last seen with the key (YYYY-MM-DD); null for the id.',
      },
      recency: probability('The factor for how long ago that was (1: recently).'),
      sharedBy: { type: 'integer', minimum: 0, description: 'People in the graph the key is seen with.' },
      probability: probability('strength × recency, shared evenly between the people who have the key.'),
    },
    additionalProperties: false,
  },
  PiiEvidence: {
    type: 'object',
    description: 'The name-and-address comparison with the best of the person’s addresses.',
    required: ['weight', 'probability', 'swapped', 'home', 'fields'],
    properties: {
      weight: { type: 'number', description: 'Bits of evidence for a match, the prior included.' },
      probability: probability('The chance of a match the weight gives.'),
      swapped: { type: 'boolean', description: 'First and last name matched the other way round.' },
      home: {
        type: 'string',
        enum: ['current', 'previous'],
        description: "Which of the person's addresses the query matched.",
      },
      fields: {
        type: 'object',
        description: "Each compared field's agreement level and the bits it added (0 when missing).",
        required: [...FIELDS],
        properties: Object.fromEntries(FIELDS.map((field) => [field, ref('FieldEvidence')])),
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  FieldEvidence: {
    type: 'object',
    required: ['level', 'weight'],
    properties: {
      level: { type: 'string', enum: [...LEVELS], description: 'How well the field agreed, strongest first.' },
      weight: { type: 'number', description: 'The bits it added (negative when it disagreed).' },
    },
    additionalProperties: false,
  },
};

const SCORED: Json = {
  score: { type: 'number', minimum: 0, maximum: 100, description: 'How sure the match is, 0 to 100.' },
  matchedOn: {
    type: 'array',
    items: { type: 'string' },
    description: 'The inputs it matched on (email, phone, pii, ...).',
  },
  explain: ref('Explain'),
};

export function identitySchemas(): Record<string, Json> {
  const record = schemaOf(lookupRecordSchema, 'output');
  // Open at its top level so FullIdentity can add score and matchedOn, and close it (unevaluatedProperties).
  const { additionalProperties: _closed, ...open } = record;
  return {
    LookupRecord: open,
    FullIdentity: {
      title: 'Identity (Full template)',
      description:
        'An identity as the default template, Full (id 1), returns it: its score and what it matched on, then the whole lookup record (LookupRecord). Record types the caller may not see are empty.',
      type: 'object',
      allOf: [ref('LookupRecord')],
      required: ['score', 'matchedOn'],
      properties: SCORED,
      unevaluatedProperties: false,
    },
    Identity: {
      description:
        'An identity shaped by a template other than Full: its score and what it matched on, then whatever fields the template makes (free-form).',
      type: 'object',
      required: ['score', 'matchedOn'],
      properties: SCORED,
      additionalProperties: true,
    },
    Identities: {
      type: 'array',
      description:
        'Identities, best score first, each the whole record (FullIdentity): the Full template, the default. With another template each is an Identity instead (the reply declared by `x-templated`).',
      items: ref('FullIdentity'),
    },
    ...EXPLAIN_SCHEMAS,
  };
}

/** Identities shaped by another template: in the reply declared by a lookup's `x-templated` (TEMPLATED_REPLY). */
export const TEMPLATED_IDENTITIES: Json = {
  type: 'array',
  description: 'Identities, best score first, each shaped by the template the call named (not Full).',
  items: ref('Identity'),
};
const full = (identities: Json) => identities !== TEMPLATED_IDENTITIES;

/** The reply to a GET lookup: its identities the Full record (`Identities`) or TEMPLATED_IDENTITIES. */
export function lookupResult(identities: Json): Json {
  return {
    type: 'object',
    description: full(identities)
      ? 'The reply to a GET lookup with the Full template (the default).'
      : 'The reply to a GET lookup with another template: each identity as the template shapes it.',
    required: ['requestId', 'identities'],
    properties: { requestId: REQUEST_ID_SCHEMA, identities },
    additionalProperties: false,
  };
}

/** The reply to a POST lookup, as lookupResult. */
export function batchResult(identities: Json): Json {
  const extras = inputExtras();
  return {
    type: 'object',
    description: full(identities)
      ? 'The reply to a POST lookup with the Full template (the default).'
      : 'The reply to a POST lookup with another template: each identity as the template shapes it.',
    required: ['requestId', 'results'],
    properties: {
      requestId: REQUEST_ID_SCHEMA,
      results: {
        type: 'array',
        description: 'One result per input, in the order of the inputs.',
        items: {
          type: 'object',
          required: ['input', 'identities'],
          properties: {
            input: {
              description:
                'The input as sent: the string, or its named inputs (blank ones left out) without extra fields.',
              anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
            },
            identities,
            ...Object.fromEntries(
              Object.entries(extras).map(([name, schema]) => [
                name,
                { ...schemaOf(schema, 'output'), description: `The input's ${name}, echoed as sent.` },
              ]),
            ),
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  };
}
