/**
 * The New Job form's values (issue 33 item 3): the endpoint, template, format and the options a lookup takes, checked
 * as the API checks them (server/src/features/identities/options.ts) so a typo is caught before the file is sent.
 */
import { JOB_FORMATS, type JobFormat } from '@tessera/common/jobs';
import { LOOKUP_ENDPOINT_NAMES, LOOKUP_LIMITS, type LookupEndpoint } from '@tessera/common/lookups';
import { isInteger, isNumber } from '@tessera/common/validation';
import type { JobOptions } from './job-api';

export interface NewJobValues extends Record<string, string> {
  /** The chosen file's name: the form kit checks that one is chosen; the file itself is the form's. */
  file: string;
  endpoint: string;
  template: string;
  format: string;
  minScore: string;
  limit: string;
}

export const EMPTY_JOB: NewJobValues = {
  file: '',
  endpoint: 'byEmail',
  template: '',
  format: 'csv',
  minScore: '',
  limit: '',
};

export const JOB_FORM_MESSAGES = {
  file: 'Please choose a CSV file to upload.',
  minScore: 'Please provide a number from 0 to 100.',
  limit: `Please provide a whole number from 1 to ${LOOKUP_LIMITS.maxLimit}.`,
} as const;

export function minScoreProblem(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return undefined;
  return isNumber(v) && Number(v) >= 0 && Number(v) <= 100 ? undefined : JOB_FORM_MESSAGES.minScore;
}

export function limitProblem(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return undefined;
  return isInteger(v) && Number(v) >= 1 && Number(v) <= LOOKUP_LIMITS.maxLimit ? undefined : JOB_FORM_MESSAGES.limit;
}

const isEndpoint = (v: string): v is LookupEndpoint => (LOOKUP_ENDPOINT_NAMES as readonly string[]).includes(v);
const isFormat = (v: string): v is JobFormat => (JOB_FORMATS as readonly string[]).includes(v);

/** What the upload sends besides the file. */
export function jobOptionsOf(values: NewJobValues): JobOptions {
  return {
    endpoint: isEndpoint(values.endpoint) ? values.endpoint : 'byEmail',
    format: isFormat(values.format) ? values.format : 'csv',
    template: values.template,
    minScore: values.minScore,
    limit: values.limit,
  };
}
