/**
 * Invoices with the app (decision 0034): the routes, and the monthly close of the month before, run at start and
 * hourly on an unref'd timer. Every process runs it; the close is idempotent and serialized by the counter row's
 * lock, so however many run it at once, last month's invoices are issued once.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { periodicJob } from '../../jobs/periodic';
import { registerBillingRoutes } from './billing-routes';
import { closeMonth } from './repo';
import { registerInvoiceRoutes } from './routes';
import type { Seller } from './seller';

export const CLOSE_EVERY_MS = 3600_000;

/** The calendar month (UTC) before the one holding `at`, as 'YYYY-MM'. */
export function previousMonth(at: number): string {
  const d = new Date(at);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

export function registerInvoices(
  app: FastifyInstance,
  deps: { database: Database; seller: Seller; now?: () => number },
): void {
  const now = deps.now ?? Date.now;
  registerInvoiceRoutes(app, deps);
  registerBillingRoutes(app, deps);
  const close = periodicJob({
    name: 'monthly close',
    logger: app.log,
    async run() {
      const month = previousMonth(now());
      const { issued } = await closeMonth(deps.database, month, undefined, deps.seller);
      if (issued.length > 0) app.log.info({ month, issued: issued.length }, 'invoices issued');
    },
  });
  app.addHook('onReady', async () => close.start(CLOSE_EVERY_MS));
  app.addHook('onClose', () => close.stop());
}
