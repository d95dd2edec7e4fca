/**
 * The OpenAPI paths of stored uploads (/v2/uploads..., docs/jobs.md): a CSV kept a stated time so bulk jobs can be
 * made from it by reference (`upload` on POST /v2/jobs), and the StoredUpload schema (common/uploads.ts).
 */
import { LIST_LIMIT } from '../bulk-jobs/paging';
import { DEFAULT_UPLOAD_HOURS } from '../bulk-jobs/settings';
import { type Examples, header, type Json, ref } from './base';
import {
  BASE_HEADERS,
  CONTENT_ENCODING,
  DELETED,
  errors,
  IDEMPOTENCY_KEY,
  jsonReply,
  LOOKUP_SECURITY,
  pageParameters,
  RATE_HEADERS,
  requestedWith,
} from './http-parts';
import { JOBS_TAG } from './job-paths';

export const UPLOAD_ID_SCHEMA = { type: 'string', pattern: '^upl_[0-9a-f]{24}$' };

const UPLOAD = {
  type: 'object',
  description: 'A stored CSV, kept for bulk jobs to be made from it.',
  required: ['id', 'columns', 'rows', 'bytes', 'sha256', 'createdAt', 'expiresAt'],
  properties: {
    id: UPLOAD_ID_SCHEMA,
    columns: { type: 'array', items: { type: 'string' }, description: 'Its header row, as sent.' },
    rows: { type: 'integer', minimum: 1, description: 'Rows under the header.' },
    bytes: { type: 'integer', minimum: 0, description: 'Bytes of the CSV as read (after Content-Encoding).' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of those bytes.' },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: {
      type: 'string',
      format: 'date-time',
      description: 'When it is deleted; a job made from it keeps it until the job ends.',
    },
  },
  additionalProperties: false,
};

export function uploadSchemas(): Record<string, Json> {
  return {
    StoredUpload: UPLOAD,
    DeletedUpload: DELETED(UPLOAD_ID_SCHEMA),
    UploadReply: {
      type: 'object',
      required: ['upload'],
      properties: { upload: ref('StoredUpload') },
      additionalProperties: false,
    },
    Uploads: {
      type: 'object',
      required: ['uploads', 'next'],
      properties: {
        uploads: { type: 'array', items: ref('StoredUpload'), description: 'Newest first.' },
        next: { type: ['string', 'null'], description: 'The `before` of the next page; null on the last.' },
      },
      additionalProperties: false,
    },
  };
}

export function uploadPaths(examples: Examples): Record<string, Json> {
  const ex = (id: string) => examples.operations[id];
  const base = { tags: [JOBS_TAG.name], security: LOOKUP_SECURITY };
  const reading = { '400': null, '401': null, '403': null, '451': null, '500': null, '503': null };
  const notFound = { '404': "No such upload, an expired one, another organization's, or (to a member) a colleague's." };
  const pathId = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The upload id.',
    schema: UPLOAD_ID_SCHEMA,
    ...(ex('getUpload')?.request.query?.id ? { example: ex('getUpload')!.request.query!.id } : {}),
  };
  const csvExample = ex('createUpload')?.request.csv;
  return {
    '/v2/uploads': {
      post: {
        ...base,
        operationId: 'createUpload',
        summary: 'Store a CSV for bulk jobs',
        description: `Keeps a CSV (any length, read as it arrives) ${DEFAULT_UPLOAD_HOURS} hours by default (JOB_UPLOAD_HOURS), so jobs can be made from it with \`upload\` on POST /v2/jobs, as many as wanted, without sending it again. Its header is checked by each job against the job's endpoint. Admitted and rate-limited as a lookup; nothing is billed for storing it.`,
        parameters: [IDEMPOTENCY_KEY, requestedWith(false), CONTENT_ENCODING],
        requestBody: {
          required: true,
          content: {
            'text/csv': {
              schema: { type: 'string', description: 'A header row naming its columns, then one row per input.' },
              ...(csvExample !== undefined ? { example: csvExample } : {}),
            },
          },
        },
        responses: {
          '201': {
            ...jsonReply('The upload, stored.', ref('UploadReply'), ex('createUpload')),
            headers: {
              ...BASE_HEADERS,
              ...RATE_HEADERS,
              'Idempotent-Replayed': header('IdempotentReplayed'),
              Location: { description: 'The upload’s address (absent on a replay).', schema: { type: 'string' } },
            },
          },
          ...errors({
            ...reading,
            '402': null,
            '409': 'The first request with this Idempotency-Key is still running.',
            '413': 'A compressed body decompresses to over 200 times its size.',
            '415':
              'The Content-Type is one the server does not read (a JSON body answers 400, naming text/csv), or the Content-Encoding is not gzip, deflate or br.',
            '422': 'This Idempotency-Key was used with another request.',
            '429': null,
          }),
        },
      },
      get: {
        ...base,
        operationId: 'listUploads',
        summary: 'List stored uploads',
        description: 'Your uploads not expired, newest first; an administrator’s: the organization’s.',
        parameters: pageParameters('Uploads', LIST_LIMIT),
        responses: { '200': jsonReply('A page of uploads.', ref('Uploads'), ex('listUploads')), ...errors(reading) },
      },
    },
    '/v2/uploads/{id}': {
      get: {
        ...base,
        operationId: 'getUpload',
        summary: 'Read a stored upload',
        description: 'One stored upload of yours (an administrator: of the organization) not expired yet.',
        parameters: [pathId],
        responses: {
          '200': jsonReply('The upload.', ref('UploadReply'), ex('getUpload')),
          ...errors({ ...reading, ...notFound }),
        },
      },
      delete: {
        ...base,
        operationId: 'deleteUpload',
        summary: 'Delete a stored upload',
        description: 'Deletes it now, unless a job made from it has not ended (409 naming the job).',
        parameters: [pathId, requestedWith(false)],
        responses: {
          '200': jsonReply(
            'The upload marked deleted: `{uploads: {id: {id, deletedAt}}}`.',
            {
              type: 'object',
              required: ['uploads'],
              properties: { uploads: { type: 'object', additionalProperties: ref('DeletedUpload') } },
              additionalProperties: false,
            },
            ex('deleteUpload'),
          ),
          ...errors({ ...reading, ...notFound, '409': 'A job made from it has not ended; the text names it.' }),
        },
      },
    },
  };
}
