import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZApprovalCountAnswer, ZApprovalDecisionAnswer, ZApprovalListQuery, ZApprovalPageAnswer, ZApprovalRejection } from '../../shared/contracts/approvals';
import { idParams } from '../../shared/contracts/common';
import { ROLES } from '../../shared/staff-roles';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { send } from '../plugins/reply';
import * as approvals from './service';

const approvalIdParams = idParams("The four-eyes request's id, as GET /api/admin/approvals lists it.");

const tags = ['approvals', 'staff'];

/** The four-eyes queue (issue 15, ADR 023). */
export function approvalRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/admin/approvals',
      {
        config: { access: 'staff', staffRoles: ROLES.approvers },
        schema: {
          tags,
          summary: 'Staff requests waiting for (or decided by) a second staff member',
          querystring: ZApprovalListQuery,
          response: { 200: ZApprovalPageAnswer },
        },
      },
      async (request) => ({ data: await approvals.listApprovals(contextOf(request, context), request.query) }),
    );

    api.get(
      '/admin/approvals/count',
      {
        config: { access: 'staff', staffRoles: ROLES.approvers },
        schema: { tags, summary: 'How many requests are pending (the sidebar badge)', response: { 200: ZApprovalCountAnswer } },
      },
      async (request) => ({ data: await approvals.countPending(contextOf(request, context)) }),
    );

    api.post(
      '/admin/approvals/:id/approve',
      {
        config: { access: 'staff', staffRoles: ROLES.approvers },
        schema: {
          tags,
          summary: 'Approve a request: its change is made now, exactly as asked (never by the staff member who asked)',
          params: approvalIdParams,
          response: { 200: ZApprovalDecisionAnswer },
        },
      },
      async (request, reply) => send(reply, await approvals.approve(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/admin/approvals/:id/reject',
      {
        config: { access: 'staff', staffRoles: ROLES.approvers },
        schema: {
          tags,
          summary: 'Reject a request, saying why',
          params: approvalIdParams,
          body: ZApprovalRejection,
          response: { 200: ZApprovalDecisionAnswer },
        },
      },
      async (request, reply) => send(reply, await approvals.reject(contextOf(request, context), request.params.id, request.body.reason)),
    );

    api.post(
      '/admin/approvals/:id/cancel',
      {
        config: { access: 'staff', staffRoles: ROLES.approvers },
        schema: {
          tags,
          summary: 'Withdraw my own request',
          params: approvalIdParams,
          response: { 200: ZApprovalDecisionAnswer },
        },
      },
      async (request, reply) => send(reply, await approvals.cancel(contextOf(request, context), request.params.id)),
    );
  };
}
