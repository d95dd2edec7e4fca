/**
 * Browser navigation to /oauth/{provider} (spec §7). No provider is configured yet (the accounts work adds
 * their settings), so a known provider sends the browser back to /login, which says so; an unknown one is a 404.
 */
import { findProvider } from '@tessera/common/providers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../http/errors';

export function registerOauthRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/oauth/:provider',
    { schema: { params: z.object({ provider: z.string().max(40) }) } },
    async (request, reply) => {
      const provider = findProvider(request.params.provider);
      if (!provider) throw new NotFound('No such sign-in provider.');
      const query = new URLSearchParams({ failure: 'unconfigured', provider: provider.id });
      return reply.redirect(`/login?${query}`, 302);
    },
  );
}
