/**
 * /v2/invoices (decisions 0034, 0064): super+ read every organization's invoices, close a month and mark invoices
 * paid or void; an organization's administrators read their own organization's invoices only: another
 * organization's invoice or organization answers 404, as a missing one does, so ids cannot be probed. Members have
 * no billing (403).
 */
import { BILLING_MESSAGES, canSeeBilling } from '@tessera/common/billing';
import type { User } from '@tessera/common/entities';
import { INVOICE_ACTION_FROM, INVOICE_ACTIONS, INVOICE_MESSAGES, type Invoice } from '@tessera/common/invoices';
import { hasRank } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { BadRequest, Conflict, NotFound } from '../../http/errors';
import { actorOf, audit } from '../audit/record';
import { billingOrganization, requireBilling } from './access';
import { fileName, invoiceCsv, invoicePdf } from './documents';
import { monthBounds } from './lines';
import { closeMonth, draftInvoice, findInvoice, listInvoices, setStatus } from './repo';
import { actionParams, closeBody, draftQuery, fileParams, listQuery } from './schemas';
import { DEFAULT_SELLER, type Seller } from './seller';

/** Another organization's invoice is, to an administrator, no invoice at all. */
function mayRead(user: User, invoice: Invoice | null): asserts invoice is Invoice {
  if (!invoice || !canSeeBilling(user, invoice.organizationId)) throw new NotFound(INVOICE_MESSAGES.notFound);
}

export function registerInvoiceRoutes(
  app: FastifyInstance,
  deps: { database: Database; seller?: Seller; now?: () => number },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const seller = deps.seller ?? DEFAULT_SELLER;
  const now = deps.now ?? Date.now;

  r.get('/v2/invoices', { preHandler: requireBilling, schema: { querystring: listQuery } }, async (request) => {
    const { user } = request;
    const q = request.query;
    let organizationId = q.organizationId;
    if (!hasRank(user.role, 'super')) {
      organizationId = billingOrganization(user, organizationId ?? user.organizationId ?? 0);
    }
    return listInvoices(database.db, { ...q, organizationId });
  });

  r.get('/v2/invoices/draft', { preHandler: requireBilling, schema: { querystring: draftQuery } }, async (request) => {
    const organizationId = billingOrganization(request.user, request.query.organizationId);
    const month = new Date(now()).toISOString().slice(0, 7);
    const invoice = await draftInvoice(database.db, organizationId, month, seller);
    if (!invoice) throw new NotFound(BILLING_MESSAGES.notFound);
    return { invoice };
  });

  r.get(
    '/v2/invoices/:file',
    { preHandler: requireBilling, schema: { params: fileParams } },
    async (request, reply) => {
      const [id, ext] = request.params.file.split('.') as [string, 'pdf' | 'csv' | undefined];
      const invoice = await findInvoice(database.db, Number(id));
      mayRead(request.user, invoice);
      if (!ext) return { invoice };
      reply.header('content-disposition', `attachment; filename="${fileName(invoice, ext)}"`);
      // An invoice is the organization's business: no shared cache keeps a copy.
      reply.header('cache-control', 'private, no-store');
      if (ext === 'csv') return reply.type('text/csv; charset=utf-8').send(invoiceCsv(invoice));
      return reply.type('application/pdf').send(await invoicePdf(invoice, seller));
    },
  );

  r.post('/v2/invoices/close', { preHandler: requireRank('super'), schema: { body: closeBody } }, async (request) => {
    const { month } = request.body;
    if (monthBounds(month).end.getTime() > now()) throw new BadRequest(INVOICE_MESSAGES.notEnded);
    const { issued } = await closeMonth(
      database,
      month,
      (tx, ids) =>
        audit(tx, {
          action: 'invoice.close',
          ...actorOf(request),
          targetType: 'invoice-month',
          targetId: month,
          detail: { issued: ids },
        }),
      seller,
    );
    request.log.info({ month, issued: issued.length }, 'invoices issued');
    return { month, issued: issued.length, ids: issued };
  });

  r.post(
    '/v2/invoices/:id/:action',
    { preHandler: requireRank('super'), schema: { params: actionParams } },
    async (request) => {
      const { id, action } = request.params;
      const invoice = await database.transaction(async (tx) => {
        const current = await findInvoice(tx, id, true);
        if (!current) throw new NotFound(INVOICE_MESSAGES.notFound);
        if (!INVOICE_ACTION_FROM[action].includes(current.status)) {
          throw new Conflict(INVOICE_MESSAGES.cannot(action, current.status));
        }
        await setStatus(tx, id, INVOICE_ACTIONS[action]);
        await audit(tx, {
          action: `invoice.${action}`,
          ...actorOf(request),
          targetType: 'invoice',
          targetId: id,
          detail: { from: current.status, number: current.number },
        });
        return findInvoice(tx, id);
      });
      return { invoice };
    },
  );
}
