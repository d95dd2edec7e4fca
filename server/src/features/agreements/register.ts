/** Agreement versions with the app (issue 18 item 5). */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { registerAgreementRoutes } from './routes';

export function registerAgreements(app: FastifyInstance, deps: { database: Database }): void {
  registerAgreementRoutes(app, deps);
}
