import { ZApprovalPendingAnswer } from '../../shared/contracts/approvals';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAdminDeleteAnswer, ZAdminUserAnswer, ZAdminUserListAnswer, ZAdminUserListQuery, ZAdminUserUpdate, ZEmailParams } from '../../shared/contracts/admin';
import { idParams } from '../../shared/contracts/common';
import { ZSessionEndedAnswer, ZSessionListAnswer, ZUserSessionParams } from '../../shared/contracts/sessions';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { send } from '../plugins/reply';
import * as customers from './service';
import { ROLES } from '../../shared/staff-roles';

const userIdParams = idParams("The user's _id.");

/** The back office's customers: bank staff only (401 without a session, 403 for customers). */
export function customerRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['customers', 'staff'];

    api.get(
      '/user/admin',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: { tags, summary: 'Search and page through every user', querystring: ZAdminUserListQuery, response: { 200: ZAdminUserListAnswer } },
      },
      async (request) => ({ data: await customers.listCustomers(contextOf(request, context), request.query) }),
    );

    api.get(
      '/user/admin/email/:email',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: { tags, summary: 'One user by email address', params: ZEmailParams, response: { 200: ZAdminUserAnswer } },
      },
      async (request) => ({ data: await customers.customerByEmail(contextOf(request, context), request.params.email) }),
    );

    api.get(
      '/user/admin/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: { tags, summary: 'One user', params: userIdParams, response: { 200: ZAdminUserAnswer } },
      },
      async (request) => ({ data: await customers.customerById(contextOf(request, context), request.params.id) }),
    );

    api.get(
      '/user/admin/:id/sessions',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: { tags, summary: 'Where a user is signed in: every live session', params: userIdParams, response: { 200: ZSessionListAnswer } },
      },
      async (request) => ({ data: await customers.customerSessions(contextOf(request, context), request.params.id) }),
    );

    api.delete(
      '/user/admin/:id/sessions/:sessionId',
      {
        config: { access: 'staff', staffRoles: ROLES.customerCare },
        schema: { tags, summary: "End one of a user's sessions (audited)", params: ZUserSessionParams, response: { 200: ZSessionEndedAnswer } },
      },
      async (request, reply) => send(reply, await customers.endCustomerSession(contextOf(request, context), request.params.id, request.params.sessionId)),
    );

    api.put(
      '/user/admin/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.customerCare },
        schema: {
          tags,
          summary: "Change a user's details, verification status, block or access (audited; the customer is told)",
          params: userIdParams,
          body: ZAdminUserUpdate,
          // Lifting a block or a disabled access waits for a second staff member (202, ADR 023).
          response: { 200: ZAdminUserAnswer, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => send(reply, await customers.updateCustomer(contextOf(request, context), request.params.id, request.body)),
    );

    api.delete(
      '/user/admin/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: {
          tags,
          summary: 'Delete a customer without ledger history, or close and anonymize one with history',
          params: userIdParams,
          response: { 200: ZAdminDeleteAnswer, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => send(reply, await customers.closeOrDeleteCustomer(contextOf(request, context), request.params.id)),
    );
  };
}
