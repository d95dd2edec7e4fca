/** Releases with the app (decision 0038): root's routes, artifacts built into RELEASES_DIR from this repository. */
import type { FastifyInstance } from 'fastify';
import { type ReleaseDeps, registerReleaseRoutes } from './routes';

export function registerReleases(app: FastifyInstance, deps: ReleaseDeps): void {
  registerReleaseRoutes(app, deps);
}
