import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAdminDashboardAnswer, ZAdminLedgerOverviewAnswer, ZAdminLedgerVerificationAnswer } from '../../shared/contracts/admin';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as reports from './service';
import { ROLES } from '../../shared/staff-roles';

/** The back office's dashboard and general ledger: bank staff only. */
export function adminRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['reports', 'staff'];

    api.get(
      '/admin/dashboard',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: { tags, summary: 'Customers, deposits, transfers and queues at a glance', response: { 200: ZAdminDashboardAnswer } },
      },
      async (request) => ({ data: await reports.getDashboard(contextOf(request, context)) }),
    );

    api.get(
      '/admin/ledger',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: { tags, summary: "The bank's accounts, customer balances summed, and the chain head", response: { 200: ZAdminLedgerOverviewAnswer } },
      },
      async (request) => ({ data: await reports.getLedgerOverview(contextOf(request, context)) }),
    );

    // The same verification as `npm run ledger:verify`: it reads every entry, so a few per minute at most.
    api.post(
      '/admin/ledger/verify',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, ...perMinute(6) },
        schema: { tags, summary: 'Recompute the hash chain and every balance (audited)', response: { 200: ZAdminLedgerVerificationAnswer } },
      },
      async (request, reply) => send(reply, await reports.runLedgerVerification(contextOf(request, context))),
    );
  };
}
