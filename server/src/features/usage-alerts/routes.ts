/**
 * /v2/organizations/{id}/usage-alerts (decision 0029): an organization's administrators, and super+, read and change
 * its alert settings and read its recent firings. Anyone else is refused (403) without learning whether the
 * organization exists; super+ get 404 for one that does not.
 */
import type { User } from '@tessera/common/entities';
import { canEditOrganization } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { Forbidden, NotFound } from '../../http/errors';
import { audit } from '../audit/record';
import { NOT_FOUND } from '../console/access';
import { findOrganization } from '../organizations/repo';
import { saveSettings, usageAlertsOf } from './repo';
import { organizationParams, usageAlertsBody } from './schemas';
import type { UsageAlertService } from './service';

export const USAGE_ALERTS_FORBIDDEN = "Only the organization's administrators can see and change its usage alerts.";

function mustAdminister(user: User, organizationId: number): void {
  if (!canEditOrganization(user, organizationId)) throw new Forbidden(USAGE_ALERTS_FORBIDDEN);
}

export function registerUsageAlertRoutes(
  app: FastifyInstance,
  deps: { database: Database; alerts: Pick<UsageAlertService, 'touch'> },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, alerts } = deps;
  const path = '/v2/organizations/:id/usage-alerts';

  r.get(path, { preHandler: requireRank('admin'), schema: { params: organizationParams } }, async (request) => {
    const { id } = request.params;
    mustAdminister(request.user, id);
    if (!(await findOrganization(database.db, id))) throw new NotFound(NOT_FOUND.organization);
    return { usageAlerts: await usageAlertsOf(database.db, id) };
  });

  r.put(
    path,
    { preHandler: requireRank('admin'), schema: { params: organizationParams, body: usageAlertsBody } },
    async (request) => {
      const { id } = request.params;
      const { user } = request;
      mustAdminister(user, id);
      const usageAlerts = await database.transaction(async (tx) => {
        if (!(await findOrganization(tx, id))) throw new NotFound(NOT_FOUND.organization);
        const current = await usageAlertsOf(tx, id);
        const { thresholdsOn, thresholds, spikeOn, spikeMultiple } = { ...current, ...request.body };
        const updatedAt = await saveSettings(tx, id, { thresholdsOn, thresholds, spikeOn, spikeMultiple });
        await audit(tx, {
          action: 'organization.update',
          actorId: user.id,
          impersonatorId: user.impersonator,
          targetType: 'organization',
          targetId: id,
          ip: request.ip,
          detail: { fields: Object.keys(request.body).map((k) => `usageAlerts.${k}`) },
        });
        return { ...current, thresholdsOn, thresholds, spikeOn, spikeMultiple, updatedAt: updatedAt.toISOString() };
      });
      // New shares may already be reached this month: check now rather than at the next call.
      alerts.touch(id);
      return { usageAlerts };
    },
  );
}
