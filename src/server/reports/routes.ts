import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAccountParams, ZBalanceAtAnswer, ZBalanceAtQuery } from '../../shared/contracts/journal';
import { ZReportDaysAnswer, ZTrialBalanceAnswer, ZTrialBalanceExportQuery, ZTrialBalanceQuery } from '../../shared/contracts/reports';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { fileResponse } from '../plugins/uploads';
import { trialBalanceCsv, trialBalancePdf } from './export';
import * as reports from './service';
import { ROLES } from '../../shared/staff-roles';

/** End of day's reports and any account's balance at a past date: bank staff only. */
export function reportRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['reports', 'staff'];

    api.get(
      '/admin/reports/days',
      {
        config: { access: 'staff', staffRoles: ROLES.finance },
        schema: { tags, summary: 'The first and the newest closed bank days', response: { 200: ZReportDaysAnswer } },
      },
      async (request) => ({ data: await reports.reportDays(contextOf(request, context)) }),
    );

    api.get(
      '/admin/reports/trial-balance',
      {
        config: { access: 'staff', staffRoles: ROLES.finance },
        schema: {
          tags,
          summary: 'The trial balance stored at the end of a bank day: the accounts that moved, and totals that balance to zero',
          querystring: ZTrialBalanceQuery,
          response: { 200: ZTrialBalanceAnswer },
        },
      },
      async (request) => ({ data: await reports.trialBalance(contextOf(request, context), request.query) }),
    );

    // Files read every line of a day: a few a minute per address is plenty.
    api.get(
      '/admin/reports/trial-balance.csv',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, ...perMinute(30) },
        schema: {
          tags,
          summary: 'A closed day’s trial balance as CSV (decimal dollars; the last rows are the unchanged accounts and the totals)',
          querystring: ZTrialBalanceExportQuery,
          response: { 200: fileResponse('The trial balance', ['text/csv']) },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(request, context);
        const summary = await reports.trialBalanceSummary(ctx, request.query.date);
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="trial-balance-${summary.date}.csv"`)
          .header('Cache-Control', 'private, no-store')
          .send(trialBalanceCsv(summary, reports.allLines(ctx, summary.date)));
      },
    );

    api.get(
      '/admin/reports/trial-balance.pdf',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, ...perMinute(30) },
        schema: {
          tags,
          summary: 'A closed day’s trial balance as PDF, to print and file',
          querystring: ZTrialBalanceExportQuery,
          response: { 200: fileResponse('The trial balance', ['application/pdf']) },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(request, context);
        const summary = await reports.trialBalanceSummary(ctx, request.query.date);
        return reply
          .header('Content-Type', 'application/pdf')
          .header('Content-Disposition', `attachment; filename="trial-balance-${summary.date}.pdf"`)
          .header('Content-Security-Policy', "default-src 'none'; sandbox")
          .header('Cache-Control', 'private, no-store')
          .send(trialBalancePdf(ctx.config.bankName, summary, reports.allLines(ctx, summary.date)));
      },
    );

    api.get(
      '/admin/accounts/:id/balance',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: {
          tags,
          summary: 'An account’s balance at the end of a past bank day (BANK_TIMEZONE), by booking time; value dates do not move it',
          params: ZAccountParams,
          querystring: ZBalanceAtQuery,
          response: { 200: ZBalanceAtAnswer },
        },
      },
      async (request) => ({ data: await reports.balanceAt(contextOf(request, context), request.params.id, request.query.date) }),
    );
  };
}
