/** The JOB_* settings: their defaults, and a clear problem for each value that is not one. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { jobSettingsFromEnv } from './settings';

describe('JOB_* settings', () => {
  it('default to running jobs, keeping results 7 days and uploads 24 hours, 2,000 rows a chunk', () => {
    expect(jobSettingsFromEnv({})).toEqual({ runner: true, resultDays: 7, chunkRows: 2000, uploadHours: 24 });
    expect(
      jobSettingsFromEnv({
        JOB_RUNNER: 'false',
        JOB_RESULT_DAYS: '30',
        JOB_CHUNK_ROWS: '5000',
        JOB_UPLOAD_HOURS: '72',
      }),
    ).toEqual({ runner: false, resultDays: 30, chunkRows: 5000, uploadHours: 72 });
  });

  it.each([
    ['JOB_RUNNER', 'maybe', 'JOB_RUNNER must be true or false.'],
    ['JOB_RESULT_DAYS', '0', 'JOB_RESULT_DAYS must be a whole number of days from 1 to 365.'],
    ['JOB_RESULT_DAYS', '2.5', 'JOB_RESULT_DAYS must be a whole number of days from 1 to 365.'],
    ['JOB_CHUNK_ROWS', '750', 'JOB_CHUNK_ROWS must be a multiple of 500 from 500 to 5000.'],
    ['JOB_CHUNK_ROWS', '10000', 'JOB_CHUNK_ROWS must be a multiple of 500 from 500 to 5000.'],
    ['JOB_CHUNK_ROWS', 'lots', 'JOB_CHUNK_ROWS must be a multiple of 500 from 500 to 5000.'],
    ['JOB_UPLOAD_HOURS', '0', 'JOB_UPLOAD_HOURS must be a whole number of hours from 1 to 720.'],
    ['JOB_UPLOAD_HOURS', '721', 'JOB_UPLOAD_HOURS must be a whole number of hours from 1 to 720.'],
  ])('refuses %s=%s', (name, value, problem) => {
    expect(jobSettingsFromEnv({ [name]: value })).toEqual({ problem });
    expect(() => loadConfig({ [name]: value })).toThrow(new ConfigError(`Invalid configuration: ${problem}`));
  });
});
