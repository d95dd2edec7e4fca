/**
 * /v2/invoices (decision 0034): super+ read every organization's invoices, close a month and mark invoices paid
 * or void; an organization's administrators read their own organization's invoices only (403 for another's);
 * members are refused (403).
 */
import type { User } from '@tessera/common/entities';
import { INVOICE_ACTION_FROM, INVOICE_ACTIONS, INVOICE_MESSAGES, type Invoice } from '@tessera/common/invoices';
import { canEditOrganization, hasRank } from '@tessera/common/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireRank } from '../../http/auth';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors';
import { actorOf, audit } from '../audit/record';
import { NOT_FOUND } from '../console/access';
import { fileName, invoiceCsv, invoicePdf } from './documents';
import { monthBounds } from './lines';
import { closeMonth, draftInvoice, findInvoice, listInvoices, setStatus } from './repo';
import { actionParams, closeBody, draftQuery, fileParams, listQuery } from './schemas';

function mayRead(user: User, invoice: Invoice): void {
  if (!canEditOrganization(user, invoice.organizationId)) throw new Forbidden(INVOICE_MESSAGES.forbidden);
}

export function registerInvoiceRoutes(app: FastifyInstance, deps: { database: Database; now?: () => number }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const now = deps.now ?? Date.now;

  r.get('/v2/invoices', { preHandler: requireRank('admin'), schema: { querystring: listQuery } }, async (request) => {
    const { user } = request;
    const q = request.query;
    let organizationId = q.organizationId;
    if (!hasRank(user.role, 'super')) {
      if (organizationId !== undefined && organizationId !== user.organizationId) {
        throw new Forbidden(INVOICE_MESSAGES.forbidden);
      }
      if (user.organizationId === null) throw new Forbidden(INVOICE_MESSAGES.forbidden);
      organizationId = user.organizationId;
    }
    return listInvoices(database.db, { ...q, organizationId });
  });

  r.get(
    '/v2/invoices/draft',
    { preHandler: requireRank('admin'), schema: { querystring: draftQuery } },
    async (request) => {
      const { organizationId } = request.query;
      if (!canEditOrganization(request.user, organizationId)) throw new Forbidden(INVOICE_MESSAGES.forbidden);
      const invoice = await draftInvoice(database.db, organizationId, new Date(now()).toISOString().slice(0, 7));
      if (!invoice) throw new NotFound(NOT_FOUND.organization);
      return { invoice };
    },
  );

  r.get(
    '/v2/invoices/:file',
    { preHandler: requireRank('admin'), schema: { params: fileParams } },
    async (request, reply) => {
      const [id, ext] = request.params.file.split('.') as [string, 'pdf' | 'csv' | undefined];
      const invoice = await findInvoice(database.db, Number(id));
      if (!invoice) {
        if (!hasRank(request.user.role, 'super')) throw new Forbidden(INVOICE_MESSAGES.forbidden);
        throw new NotFound(INVOICE_MESSAGES.notFound);
      }
      mayRead(request.user, invoice);
      if (!ext) return { invoice };
      reply.header('content-disposition', `attachment; filename="${fileName(invoice, ext)}"`);
      if (ext === 'csv') return reply.type('text/csv; charset=utf-8').send(invoiceCsv(invoice));
      return reply.type('application/pdf').send(await invoicePdf(invoice));
    },
  );

  r.post('/v2/invoices/close', { preHandler: requireRank('super'), schema: { body: closeBody } }, async (request) => {
    const { month } = request.body;
    if (monthBounds(month).end.getTime() > now()) throw new BadRequest(INVOICE_MESSAGES.notEnded);
    const { issued } = await closeMonth(database, month, (tx, ids) =>
      audit(tx, {
        action: 'invoice.close',
        ...actorOf(request),
        targetType: 'invoice-month',
        targetId: month,
        detail: { issued: ids },
      }),
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
