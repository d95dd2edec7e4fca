/** SSH access with the app (issue 20 item 3, decision 0037): keys, host groups, grants, the hosts' endpoint, the CA. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { registerAuthorizedKeysRoute } from './authorized-keys';
import { createSshCa, type SecretSealer, type SshCa } from './ca';
import { registerSshGrantRoutes } from './grants-routes';
import { registerSshKeyRoutes } from './keys-routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SSH CA; the login tests sign a certificate that lapses within seconds with it. */
    sshCa: SshCa;
  }
}

export function registerSshAccess(app: FastifyInstance, deps: { database: Database; sealer: SecretSealer }): void {
  const ca = createSshCa(deps.database, deps.sealer);
  app.decorate('sshCa', ca);
  registerSshKeyRoutes(app, { database: deps.database, ca });
  registerSshGrantRoutes(app, { database: deps.database });
  registerAuthorizedKeysRoute(app, { database: deps.database });
}
