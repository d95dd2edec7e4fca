/**
 * The OpenAPI paths of the usage reports (/v2/usage/..., issue 16; API keys since issue 31): the query from the zod
 * schema the routes validate with (usage-reports/query.ts), the replies typed here as components.
 */
import { TABLE_PAGE_SIZES } from '@tessera/common/constants';
import { SEGMENT_USAGE_PATH } from '@tessera/common/segments';
import {
  CALL_METRICS,
  TEMPLATE_PREVIEW_USAGE_PATH,
  USAGE_CALL_SORTS,
  USAGE_LIMITS,
  USAGE_MESSAGES,
  USAGE_METRICS,
  USAGE_PATHS,
} from '@tessera/common/usage';
import { CSV_COLUMNS } from '../usage-reports/calls';
import { reportQuery } from '../usage-reports/query';
import { type Examples, type Json, ref, schemaOf } from './base';
import { BASE_HEADERS, errors, HEADERS, jsonReply, LOOKUP_SECURITY } from './http-parts';
import { typed } from './lookup-paths';

export const USAGE_TAG = {
  name: 'Usage',
  description: `What the lookups were called for and what they cost: a series to chart, totals, the calls one by one and the calls as CSV, over a range of at most ${USAGE_LIMITS.maxRangeDays} days (default: the month up to now). With an API key: that key's own calls; with an organization administrator's key (or in the console as one), the organization's; a user's console session, the user's own. A filter outside that answers 403 naming it. Lookups made with test keys are not metered, so they are not here.`,
};

const PARAMETER_DOCS: Record<string, string> = {
  from: 'The start of the range, ISO 8601 with an offset (`2026-11-01T00:00:00Z`). Default: a month before `to`.',
  to: 'The end of the range (excluded), ISO 8601 with an offset. Default: now. Must be after `from`.',
  interval: `The buckets of the series: hour, day, week (from Monday) or month, starting in \`tz\`; at most ${USAGE_LIMITS.maxPoints.toLocaleString('en-US')} points.`,
  metric: 'What the series counts: `requests`, `cost` (USD) or any metric a call has.',
  tz: 'The IANA time zone buckets start in (`America/New_York`). An unknown one answers 400.',
  userId: `Only this user's calls: yours, or as an administrator a member of your organization (else 403: "${USAGE_MESSAGES.outOfScope.userId}").`,
  organizationId: `Only this organization's calls: your own (else 403: "${USAGE_MESSAGES.outOfScope.organizationId}").`,
  keyId: `Only this key's calls: the calling key itself, or as an administrator a key of your organization (else 403: "${USAGE_MESSAGES.outOfScope.keyId}").`,
  method: 'Only calls of this HTTP method: GET (one input), POST (batch), PUT (CSV upload); `*` any.',
  path: `Only calls of this lookup (\`/byEmail\`), segment exports (\`${SEGMENT_USAGE_PATH}\`) or template previews of a real identity (\`${TEMPLATE_PREVIEW_USAGE_PATH}\`); \`*\` any.`,
  pageSize: `Calls a page: one of ${TABLE_PAGE_SIZES.join(', ')}.`,
  after:
    "The previous page's `next`, for the page after it; a cursor not from this report, or of another sort, answers 400.",
  sort: `The order: ${USAGE_CALL_SORTS.join(', ')}; a leading \`-\` for descending. Default \`-at\`, newest first.`,
};

type Parameter = keyof typeof PARAMETER_DOCS;
const RANGE: Parameter[] = ['from', 'to', 'tz', 'userId', 'organizationId', 'keyId', 'method', 'path'];

function parameters(names: Parameter[], example: Record<string, string> = {}): Json[] {
  const properties = (schemaOf(reportQuery) as { properties: Record<string, Json> }).properties;
  const refined: Record<string, Json> = {
    pageSize: { type: 'integer', enum: [...TABLE_PAGE_SIZES], default: 100 },
    sort: { type: 'string', enum: USAGE_CALL_SORTS.flatMap((s) => [s, `-${s}`]), default: '-at' },
  };
  return names.map((name) => {
    const schema = refined[name] ?? properties[name]!;
    return {
      name,
      in: 'query',
      required: false,
      description: PARAMETER_DOCS[name],
      schema,
      ...(example[name] !== undefined ? { example: typed(schema, example[name]) } : {}),
    };
  });
}

const RANGE_PROPERTIES: Json = {
  from: { type: 'string', format: 'date-time', description: 'The start of the range, settled (UTC).' },
  to: { type: 'string', format: 'date-time', description: 'The end of the range, excluded (UTC).' },
  tz: { type: 'string', description: 'The time zone buckets start in.' },
};
const range = (description: string, name: string, properties: Json): Json => ({
  type: 'object',
  description,
  required: [name],
  properties: {
    [name]: {
      type: 'object',
      required: ['from', 'to', 'tz', ...Object.keys(properties)],
      properties: { ...RANGE_PROPERTIES, ...properties },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});
const counts = (names: readonly string[]): Json =>
  Object.fromEntries(
    names.map((m) => [m, m === 'cost' ? { type: 'number', description: 'USD.' } : { type: 'integer' }]),
  );

export function usageSchemas(): Record<string, Json> {
  return {
    UsageCall: {
      type: 'object',
      description: 'One metered call: who made it, how, its status, what it counted and what it cost (USD).',
      required: [
        'id',
        'at',
        'userId',
        'userName',
        'organizationId',
        'organizationName',
        'keyId',
        'keyName',
        'method',
        'path',
        'status',
        ...CALL_METRICS,
        'cost',
      ],
      properties: {
        id: { type: 'integer' },
        at: { type: 'string', format: 'date-time', description: 'When it was metered (UTC).' },
        userId: { type: 'integer' },
        userName: {
          type: ['string', 'null'],
          description: "The user's name (else e-mail address); null where the caller may not see that user.",
        },
        organizationId: { type: ['integer', 'null'] },
        organizationName: {
          type: ['string', 'null'],
          description: "The organization's name; null where the caller may not see it.",
        },
        keyId: { type: ['string', 'null'], description: 'The key it was made with; null: a console session.' },
        keyName: {
          type: ['string', 'null'],
          description: "The key's name; null for a console session or a key the caller may not manage.",
        },
        method: { type: 'string', enum: ['GET', 'POST', 'PUT'] },
        path: {
          type: 'string',
          enum: USAGE_PATHS.filter((p) => p !== '*'),
          description: `A lookup endpoint, \`${SEGMENT_USAGE_PATH}\` (a segment export) or \`${TEMPLATE_PREVIEW_USAGE_PATH}\` (a template previewed on a real identity, priced as byId).`,
        },
        status: { type: 'integer' },
        ...counts([...CALL_METRICS, 'cost']),
      },
      additionalProperties: false,
    },
    UsageSeries: range('A metric over the range, bucket by bucket.', 'usageSeries', {
      metric: { type: 'string', enum: [...USAGE_METRICS] },
      interval: { type: 'string', enum: ['hour', 'day', 'week', 'month'] },
      points: {
        type: 'array',
        description: 'Every bucket of the range, oldest first; an empty one has value 0.',
        items: {
          type: 'object',
          required: ['at', 'value'],
          properties: {
            at: { type: 'string', format: 'date-time', description: "The bucket's start (UTC)." },
            value: { type: 'number' },
          },
          additionalProperties: false,
        },
      },
    }),
    UsageTotals: range('Every metric summed over the range.', 'usageTotals', {
      totals: {
        type: 'object',
        required: [...USAGE_METRICS],
        properties: counts(USAGE_METRICS),
        additionalProperties: false,
      },
    }),
    UsageCalls: range('A page of calls.', 'usageCalls', {
      calls: { type: 'array', items: ref('UsageCall') },
      next: {
        type: ['string', 'null'],
        description: 'Send it as `after` for the next page; null on the last page.',
      },
    }),
  };
}

export function usagePaths(examples: Examples): Record<string, Json> {
  const tags = [USAGE_TAG.name];
  const ex = (id: string) => examples.operations[id];
  const query = (id: string) => ex(id)?.request.query ?? {};
  const failures = errors({
    '400':
      'A query parameter is malformed or unknown (`fields` names it), the range is too long or holds too many points, or an API key was put in the query string.',
    '401': null,
    '403': `A filter outside what the caller may read (the text names it, e.g. "${USAGE_MESSAGES.outOfScope.keyId}"), or a key used from an address its allowlist refuses.`,
    '451': null,
    '500': null,
    '503': null,
  });
  const operation = (id: string, summary: string, description: string, names: Parameter[], reply: Json) => ({
    get: {
      operationId: id,
      summary,
      description,
      tags,
      security: LOOKUP_SECURITY,
      parameters: parameters(names, query(id)),
      responses: { '200': reply, ...failures },
    },
  });
  return {
    '/v2/usage/series': operation(
      'usageSeries',
      'Chart a usage metric',
      'One metric (requests by default) over the range, in buckets of `interval` starting in `tz`.',
      [...RANGE, 'interval', 'metric'],
      jsonReply('The series.', ref('UsageSeries'), ex('usageSeries')),
    ),
    '/v2/usage/totals': operation(
      'usageTotals',
      'Total usage',
      'Every metric, requests and cost included, summed over the range.',
      RANGE,
      jsonReply('The totals.', ref('UsageTotals'), ex('usageTotals')),
    ),
    '/v2/usage/calls': operation(
      'usageCalls',
      'List calls',
      'The calls of the range one by one, a page at a time: follow `next` with `after` until it is null.',
      [...RANGE, 'pageSize', 'after', 'sort'],
      jsonReply('A page of calls.', ref('UsageCalls'), ex('usageCalls')),
    ),
    '/v2/usage/calls.csv': operation(
      'usageCallsCsv',
      'Export calls as CSV',
      'Every call of the range as one CSV file, streamed (no pages: `pageSize` and `after` are refused).',
      [...RANGE, 'sort'],
      {
        description: `A header row (${CSV_COLUMNS.join(', ')}), then a row per call; CRLF line ends.`,
        headers: {
          ...BASE_HEADERS,
          'Content-Disposition': {
            ...HEADERS.ContentDisposition,
            description: '`attachment; filename="usage-{from}-to-{to}.csv"` (dates of the range, UTC).',
            schema: { type: 'string', examples: ['attachment; filename="usage-2026-11-01-to-2026-12-01.csv"'] },
          },
        },
        content: {
          'text/csv': {
            schema: { type: 'string' },
            ...(ex('usageCallsCsv')?.csvReply !== undefined ? { example: ex('usageCallsCsv')!.csvReply } : {}),
          },
        },
      },
    ),
  };
}
