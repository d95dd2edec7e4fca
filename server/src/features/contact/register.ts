/** Contact Us with the app (issue 18 item 3). */
import type { FastifyInstance } from 'fastify';
import { type ContactDeps, registerContactRoutes } from './routes';

export function registerContact(app: FastifyInstance, deps: ContactDeps): void {
  registerContactRoutes(app, deps);
}
