import { ZApprovalPendingAnswer } from '../../shared/contracts/approvals';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import { ZLoanAnswer, ZLoanApplication, ZLoanApproveRequest, ZLoanList, ZLoanQueue, ZLoanQueueQuery, ZLoanRejectRequest } from '../../shared/contracts/loans';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { ticketOf } from '../plugins/idempotency';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as loans from './service';
import { ROLES } from '../../shared/staff-roles';

const applicationIdParams = idParams("The loan application's _id.");
const loanIdParams = idParams("The loan's _id.");

export function loanRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/loans',
      { config: { access: 'customer' }, schema: { tags: ['loans'], summary: 'My loans and applications', response: { 200: ZLoanList } } },
      async (request) => ({ data: await loans.myLoans(contextOf(request, context)) }),
    );

    api.post(
      '/loans',
      {
        config: { access: 'customer', ...perMinute(10) },
        schema: { tags: ['loans'], summary: 'Apply for a loan', body: ZLoanApplication, response: { 201: ZLoanAnswer } },
      },
      async (request, reply) => send(reply, await loans.applyForLoan(contextOf(request, context), request.body)),
    );

    api.put(
      '/loans/:id',
      {
        config: { access: 'customer', ...perMinute(20) },
        schema: {
          tags: ['loans'],
          summary: 'Change an application under review',
          params: loanIdParams,
          body: ZLoanApplication,
          response: { 200: ZLoanAnswer },
        },
      },
      async (request, reply) => send(reply, await loans.changeApplication(contextOf(request, context), request.params.id, request.body)),
    );

    api.delete(
      '/loans/:id',
      {
        config: { access: 'customer' },
        schema: { tags: ['loans'], summary: 'Withdraw an application under review', params: loanIdParams, response: { 200: ZLoanAnswer } },
      },
      async (request, reply) => send(reply, await loans.withdrawApplication(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/loans/:id/repayments',
      {
        config: { access: 'customer', idempotency: true, moneyCall: true, ...perMinute(20) },
        schema: { tags: ['loans'], summary: 'Pay the next installment from checking', params: loanIdParams, response: { 201: ZLoanAnswer } },
      },
      async (request, reply) => send(reply, await loans.repayInstallment(contextOf(request, context), request.params.id, ticketOf(request))),
    );

    api.get(
      '/admin/loans',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: { tags: ['loans', 'staff'], summary: 'The loan application queue', querystring: ZLoanQueueQuery, response: { 200: ZLoanQueue } },
      },
      async (request) => {
        const { status, ...page } = request.query;
        return { data: await loans.loanQueue(contextOf(request, context), status, page) };
      },
    );

    api.post(
      '/admin/loans/:id/approve',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, idempotency: true },
        schema: {
          tags: ['loans', 'staff'],
          summary: 'Approve and disburse a loan on the terms shown (above FOUR_EYES_LOAN_ABOVE: a request for a second staff member, 202)',
          params: applicationIdParams,
          body: ZLoanApproveRequest,
          response: { 200: ZLoanAnswer, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => send(reply, await loans.approveLoan(contextOf(request, context), request.params.id, request.body, ticketOf(request))),
    );

    api.post(
      '/admin/loans/:id/reject',
      {
        config: { access: 'staff', staffRoles: ROLES.finance },
        schema: {
          tags: ['loans', 'staff'],
          summary: 'Decline a loan application',
          params: applicationIdParams,
          body: ZLoanRejectRequest,
          response: { 200: ZLoanAnswer },
        },
      },
      async (request, reply) => send(reply, await loans.rejectLoan(contextOf(request, context), request.params.id, request.body.reason)),
    );
  };
}
