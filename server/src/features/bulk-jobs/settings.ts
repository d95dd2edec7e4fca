/**
 * The JOB_* settings of bulk jobs (docs/jobs.md, decision 0068), read like the webhooks' (webhooks/settings.ts): the
 * values, or the problem with them, which config.ts turns into a ConfigError naming the variable.
 */

export interface JobSettings {
  /** JOB_RUNNER: whether this process runs jobs (every process takes uploads and answers progress either way). */
  runner: boolean;
  /** JOB_RESULT_DAYS: how long a finished job's result can be downloaded; then it is deleted (410). */
  resultDays: number;
  /** JOB_CHUNK_ROWS: rows per chunk, the unit that is committed (results, usage, progress) and resumed from. */
  chunkRows: number;
  /** JOB_UPLOAD_HOURS: how long a stored upload (POST /v2/uploads) is kept for jobs to be made from it. */
  uploadHours: number;
}

export const DEFAULT_RESULT_DAYS = 7;
export const DEFAULT_CHUNK_ROWS = 2000;
/** A chunk is looked up in batches of the PUT's size (STREAM_BATCH, 500): chunks are whole batches. */
export const CHUNK_ROWS_STEP = 500;
export const MAX_CHUNK_ROWS = 5000;
export const DEFAULT_UPLOAD_HOURS = 24;
export const MAX_UPLOAD_HOURS = 720;

const value = (env: NodeJS.ProcessEnv, name: string) => {
  const v = env[name]?.trim();
  return v ? v : null;
};

/** The settings from the environment, or the problem with them. */
export function jobSettingsFromEnv(env: NodeJS.ProcessEnv): JobSettings | { problem: string } {
  const runner = value(env, 'JOB_RUNNER');
  if (runner !== null && !['true', 'false', '1', '0'].includes(runner)) {
    return { problem: 'JOB_RUNNER must be true or false.' };
  }
  const days = value(env, 'JOB_RESULT_DAYS');
  if (days !== null && !(/^\d{1,3}$/.test(days) && Number(days) >= 1 && Number(days) <= 365)) {
    return { problem: 'JOB_RESULT_DAYS must be a whole number of days from 1 to 365.' };
  }
  const rows = value(env, 'JOB_CHUNK_ROWS');
  const whole = rows !== null && /^\d{1,5}$/.test(rows) ? Number(rows) : null;
  if (
    rows !== null &&
    (whole === null || whole < CHUNK_ROWS_STEP || whole > MAX_CHUNK_ROWS || whole % CHUNK_ROWS_STEP)
  ) {
    return {
      problem: `JOB_CHUNK_ROWS must be a multiple of ${CHUNK_ROWS_STEP} from ${CHUNK_ROWS_STEP} to ${MAX_CHUNK_ROWS}.`,
    };
  }
  const hours = value(env, 'JOB_UPLOAD_HOURS');
  if (hours !== null && !(/^\d{1,3}$/.test(hours) && Number(hours) >= 1 && Number(hours) <= MAX_UPLOAD_HOURS)) {
    return { problem: `JOB_UPLOAD_HOURS must be a whole number of hours from 1 to ${MAX_UPLOAD_HOURS}.` };
  }
  return {
    runner: runner === null || runner === 'true' || runner === '1',
    resultDays: days === null ? DEFAULT_RESULT_DAYS : Number(days),
    chunkRows: rows === null ? DEFAULT_CHUNK_ROWS : Number(rows),
    uploadHours: hours === null ? DEFAULT_UPLOAD_HOURS : Number(hours),
  };
}
