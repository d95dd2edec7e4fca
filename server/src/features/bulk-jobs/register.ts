/**
 * Bulk jobs with the app (issue 33 item 3, decision 0068): the job routes, the runner (started when the app is
 * ready unless JOB_RUNNER=false, stopped after its current chunk when the app closes), the stored uploads jobs can be
 * made from, and the retention of results and uploads.
 * A job's CSV body is read as it arrives, never buffered whole, as a PUT lookup's is.
 */
import type { FastifyInstance } from 'fastify';
import { periodicJob } from '../../jobs/periodic';
import type { LookupDeps } from '../identities/service';
import { pruneJobs, RETENTION_EVERY_MS } from './retention';
import { registerJobRoutes } from './routes';
import { createJobRunner, type JobRunner } from './runner';
import type { JobSettings } from './settings';
import { registerUploadRoutes } from './upload-routes';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

export interface JobDeps {
  lookups: LookupDeps;
  settings: JobSettings;
  publicUrl: URL;
}

export async function registerJobs(app: FastifyInstance, deps: JobDeps): Promise<JobRunner> {
  const { lookups, settings, publicUrl } = deps;
  const kickWebhooks = () => app.webhooks.kick();
  const runner = createJobRunner({ lookups, settings, publicUrl, logger: app.log, kickWebhooks });
  app.decorate('jobs', runner);
  await app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'application/csv'], (_request, payload, done) => done(null, payload));
    const routeDeps = { lookups, settings, publicUrl, kickRunner: runner.kick, kickWebhooks };
    registerJobRoutes(scope, routeDeps);
    registerUploadRoutes(scope, routeDeps);
  });
  const retention = periodicJob({
    name: 'bulk job retention',
    run: (stopping) => pruneJobs(lookups.database, new Date(), stopping),
    logger: app.log,
  });
  if (settings.runner) {
    app.addHook('onReady', async () => {
      runner.start();
      retention.start(RETENTION_EVERY_MS);
    });
  }
  app.addHook('onClose', () => retention.stop());
  app.addHook('onClose', () => runner.stop());
  return runner;
}
