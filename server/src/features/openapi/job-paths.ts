/**
 * The OpenAPI paths of bulk jobs (/v2/jobs..., issue 33 item 3, docs/jobs.md, decision 0068) and the Job schema
 * (common/jobs.ts).
 */
import { JOB_FORMATS, JOB_STATUSES } from '@tessera/common/jobs';
import { LOOKUP_ENDPOINT_NAMES } from '@tessera/common/lookups';
import { LIST_LIMIT } from '../bulk-jobs/paging';
import { DEFAULT_RESULT_DAYS } from '../bulk-jobs/settings';
import { type Examples, header, type Json, ref } from './base';
import {
  BASE_HEADERS,
  CONTENT_ENCODING,
  errors,
  IDEMPOTENCY_KEY,
  jsonReply,
  LOOKUP_SECURITY,
  PURPOSE_PARAMETERS,
  pageParameters,
  RATE_HEADERS,
  requestedWith,
} from './http-parts';

export const JOBS_TAG = {
  name: 'Bulk jobs',
  description: `A CSV of any length looked up in the background, every row answered exactly as PUT /v2/identities/{endpoint} answers it: progress while it runs (rows done, matched, rate, time left), cancellable, billed a chunk at a time for what it served, resumed after a restart from its last finished chunk, and ending with a result file (CSV or JSON lines) kept ${DEFAULT_RESULT_DAYS} days by default (JOB_RESULT_DAYS) and a job.completed webhook. Made with an API key (or a console session); seen by its maker and by administrators of its organization.`,
};

const time = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description });

const JOB = {
  type: 'object',
  description: 'A bulk job and its progress.',
  required: [
    'id',
    'status',
    'endpoint',
    'format',
    'options',
    'rows',
    'identities',
    'cost',
    'rowsPerSecond',
    'etaSeconds',
    'error',
    'createdAt',
    'startedAt',
    'finishedAt',
    'expiresAt',
    'resultUrl',
  ],
  properties: {
    id: { type: 'string', pattern: '^job_[0-9a-f]{24}$' },
    status: {
      type: 'string',
      enum: [...JOB_STATUSES],
      description:
        '`queued` until a server takes it, `running`, then `completed`, `failed` (see `error`) or `cancelled`. (`uploading` is never shown.)',
    },
    endpoint: { type: 'string', enum: [...LOOKUP_ENDPOINT_NAMES] },
    format: { type: 'string', enum: [...JOB_FORMATS], description: 'The result file’s format.' },
    options: {
      type: 'object',
      description: 'The lookup options it was made with (template, minScore, explain, limit).',
      additionalProperties: true,
    },
    rows: {
      type: 'object',
      required: ['total', 'done', 'matched', 'failed'],
      properties: {
        total: { type: 'integer', minimum: 0, description: 'Rows of the CSV, its header not counted.' },
        done: { type: 'integer', minimum: 0, description: 'Rows answered so far (whole chunks).' },
        matched: { type: 'integer', minimum: 0, description: 'Rows that found at least one identity.' },
        failed: { type: 'integer', minimum: 0, description: 'Rows answered with an error (not CSV, not an input).' },
      },
      additionalProperties: false,
    },
    identities: { type: 'integer', minimum: 0, description: 'Identities returned so far.' },
    cost: { type: 'string', pattern: '^[0-9]+\\.[0-9]{6}$', description: 'What the rows done cost, in dollars.' },
    rowsPerSecond: {
      type: ['number', 'null'],
      description: 'Rows a second over the time spent looking up (waits not counted); null before the first chunk.',
    },
    etaSeconds: { type: ['integer', 'null'], description: 'Seconds left at that rate while it runs; null otherwise.' },
    error: { type: ['string', 'null'], description: 'Why it failed; null otherwise.' },
    createdAt: { type: 'string', format: 'date-time' },
    startedAt: time('When a server first took it.'),
    finishedAt: time('When it ended.'),
    expiresAt: time('When its result is deleted (the result then answers 410).'),
    resultUrl: { type: ['string', 'null'], description: 'Where its result is downloaded once it has ended.' },
  },
  additionalProperties: false,
};

export function jobSchemas(): Record<string, Json> {
  return {
    Job: JOB,
    JobReply: { type: 'object', required: ['job'], properties: { job: ref('Job') }, additionalProperties: false },
    Jobs: {
      type: 'object',
      required: ['jobs', 'next'],
      properties: {
        jobs: { type: 'array', items: ref('Job'), description: 'Newest first.' },
        next: { type: ['string', 'null'], description: 'The `before` of the next page; null on the last.' },
      },
      additionalProperties: false,
    },
  };
}

export function jobPaths(examples: Examples): Record<string, Json> {
  const tags = [JOBS_TAG.name];
  const ex = (id: string) => examples.operations[id];
  const base = { tags, security: LOOKUP_SECURITY };
  const reading = { '400': null, '401': null, '403': null, '451': null, '500': null, '503': null };
  const notFound = { '404': "No such job, another organization's, or (to a member) a colleague's." };
  const pathId = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The job id.',
    schema: { type: 'string' },
    ...(ex('getJob')?.request.query?.id ? { example: ex('getJob')!.request.query!.id } : {}),
  };
  const csvExample = ex('createJob')?.request.csv;
  const resultExample = ex('getJobResult')?.csvReply;
  return {
    '/v2/jobs': {
      post: {
        ...base,
        operationId: 'createJob',
        summary: 'Start a bulk job',
        description:
          'The body is the CSV a PUT lookup takes (a header row naming input columns of `endpoint`, other columns passed through), streamed to storage in constant memory. A bad header, an unknown endpoint, template or option is refused (400) before any job exists. The job is answered a chunk at a time in the background (202): follow it with GET /v2/jobs/{id}.',
        parameters: [
          {
            name: 'endpoint',
            in: 'query',
            required: true,
            description: 'The lookup endpoint every row is looked up with.',
            schema: { type: 'string', enum: [...LOOKUP_ENDPOINT_NAMES] },
            example: 'byEmail',
          },
          {
            name: 'format',
            in: 'query',
            required: false,
            description:
              '`csv` (default): the PUT’s reply; `jsonl`: one JSON object a row (`line`, `input`, `identities`, `error`).',
            schema: { type: 'string', enum: [...JOB_FORMATS], default: 'csv' },
          },
          {
            name: 'template',
            in: 'query',
            required: false,
            description: 'As a lookup’s.',
            schema: { type: 'integer', minimum: 1 },
          },
          {
            name: 'minScore',
            in: 'query',
            required: false,
            description: 'As a lookup’s.',
            schema: { type: 'number', minimum: 0, maximum: 100 },
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'As a lookup’s.',
            schema: { type: 'integer', minimum: 1 },
          },
          { name: 'explain', in: 'query', required: false, description: 'As a lookup’s.', schema: { type: 'boolean' } },
          {
            name: 'upload',
            in: 'query',
            required: false,
            description:
              'A stored upload (POST /v2/uploads) to take the rows from, instead of a body: send no body then. Its header is checked against `endpoint` as a body’s is.',
            schema: { type: 'string', pattern: '^upl_[0-9a-f]{24}$' },
          },
          ...PURPOSE_PARAMETERS,
          IDEMPOTENCY_KEY,
          requestedWith(false),
          CONTENT_ENCODING,
        ],
        requestBody: {
          required: false,
          description: 'The CSV, unless `upload` names a stored one.',
          content: {
            'text/csv': {
              schema: { type: 'string', description: 'A header row of input columns, then one input per row.' },
              ...(csvExample !== undefined ? { example: csvExample } : {}),
            },
          },
        },
        responses: {
          '202': {
            ...jsonReply('The job, queued.', ref('JobReply'), ex('createJob')),
            headers: {
              ...BASE_HEADERS,
              ...RATE_HEADERS,
              'Idempotent-Replayed': header('IdempotentReplayed'),
              Location: { description: 'The job’s address (absent on a replay).', schema: { type: 'string' } },
            },
          },
          ...errors({
            ...reading,
            '402': null,
            '404': 'The template named by `template` was deleted, or there is no such upload (or it expired).',
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
        operationId: 'listJobs',
        summary: 'List bulk jobs',
        description: 'Your jobs, newest first; an administrator’s: the organization’s.',
        parameters: pageParameters('Jobs', LIST_LIMIT),
        responses: { '200': jsonReply('A page of jobs.', ref('Jobs'), ex('listJobs')), ...errors(reading) },
      },
    },
    '/v2/jobs/{id}': {
      get: {
        ...base,
        operationId: 'getJob',
        summary: 'Read a bulk job',
        description: 'Its status and progress: rows done, matched and failed, cost, rate and time left.',
        parameters: [pathId],
        responses: {
          '200': jsonReply('The job.', ref('JobReply'), ex('getJob')),
          ...errors({ ...reading, ...notFound }),
        },
      },
    },
    '/v2/jobs/{id}/cancel': {
      post: {
        ...base,
        operationId: 'cancelJob',
        summary: 'Cancel a bulk job',
        description:
          'Ends a job that has not ended: no chunk is answered after it, the chunks done stay done (and billed), downloadable as its result; a job.completed event says `cancelled`.',
        parameters: [pathId, requestedWith(false)],
        responses: {
          '200': jsonReply('The job, cancelled.', ref('JobReply'), ex('cancelJob')),
          ...errors({ ...reading, ...notFound, '409': 'It has ended already.' }),
        },
      },
    },
    '/v2/jobs/{id}/result': {
      get: {
        ...base,
        operationId: 'getJobResult',
        summary: 'Download a bulk job’s result',
        description: `The rows answered, streamed: as CSV the PUT’s reply to the same body, row for row; as JSON lines one object a row. Kept ${DEFAULT_RESULT_DAYS} days (JOB_RESULT_DAYS) after the job ended.`,
        parameters: [pathId],
        responses: {
          '200': {
            description: 'The result file.',
            headers: { ...BASE_HEADERS, 'Content-Disposition': header('ContentDisposition') },
            content: {
              'text/csv': {
                schema: { type: 'string' },
                ...(resultExample !== undefined ? { example: resultExample } : {}),
              },
              'application/x-ndjson': { schema: { type: 'string' } },
            },
          },
          ...errors({
            ...reading,
            '403':
              'Forbidden; or the result may hold record types the caller may not see now (named), whoever made the job.',
            ...notFound,
            '409': 'It has not ended yet.',
            '410': 'It was deleted: its time was up.',
          }),
        },
      },
    },
  };
}
