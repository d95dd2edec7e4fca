/**
 * /v2/billing/{organizationId} (decision 0064): an organization's billing details, who its invoices are made out
 * to, and what applies to its next invoice (tax rate, payment days). Its administrators read and change them for
 * their own organization (another's answers 404, as a missing one does); System Administrators for any, and only
 * they set an organization's tax rate. Organization Users have no billing (403).
 */
import { BILLING_MESSAGES, type BillingOverview } from '@tessera/common/billing';
import { hasRank } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Executor } from '../../db/client';
import { Forbidden, NotFound } from '../../http/errors';
import { actorOf, audit } from '../audit/record';
import { findOrganization } from '../organizations/repo';
import { billingOrganization, requireBilling } from './access';
import { findBillingDetails, saveBillingDetails } from './billing-repo';
import { billingBody, billingParams } from './schemas';
import type { Seller } from './seller';

async function overview(db: Executor, organizationId: number, seller: Seller): Promise<BillingOverview> {
  if (!(await findOrganization(db, organizationId))) throw new NotFound(BILLING_MESSAGES.notFound);
  const details = await findBillingDetails(db, organizationId);
  return {
    id: organizationId,
    details,
    taxRate: details?.taxRate ?? seller.taxRate,
    paymentDays: seller.paymentDays,
  };
}

export function registerBillingRoutes(app: FastifyInstance, deps: { database: Database; seller: Seller }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, seller } = deps;

  r.get(
    '/v2/billing/:organizationId',
    { preHandler: requireBilling, schema: { params: billingParams } },
    async (request) => {
      const organizationId = billingOrganization(request.user, request.params.organizationId);
      return { billing: await overview(database.db, organizationId, seller) };
    },
  );

  r.put(
    '/v2/billing/:organizationId',
    { preHandler: requireBilling, schema: { params: billingParams, body: billingBody } },
    async (request) => {
      const organizationId = billingOrganization(request.user, request.params.organizationId);
      const { taxRate, ...party } = request.body;
      if (taxRate !== undefined && !hasRank(request.user.role, 'super')) {
        throw new Forbidden(BILLING_MESSAGES.taxRateStaff);
      }
      const billing = await database.transaction(async (tx) => {
        await overview(tx, organizationId, seller); // 404 for a missing organization, before anything is written
        const saved = await saveBillingDetails(tx, organizationId, party, taxRate);
        await audit(tx, {
          action: 'billing.update',
          ...actorOf(request),
          targetType: 'organization',
          targetId: organizationId,
          detail: { fields: Object.keys(request.body) },
        });
        const taxRateNow = saved.taxRate ?? seller.taxRate;
        return { id: organizationId, details: saved, taxRate: taxRateNow, paymentDays: seller.paymentDays };
      });
      return { billing };
    },
  );
}
