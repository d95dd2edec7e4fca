/** Audience segments with the app (issue 19, decision 0035): exports share the lookups' metering, billing and templates. */
import type { FastifyInstance } from 'fastify';
import type { ExportDeps } from './export';
import { registerSegmentRoutes } from './routes';

export function registerSegments(app: FastifyInstance, deps: ExportDeps): void {
  registerSegmentRoutes(app, deps);
}
