import { ZApprovalPendingAnswer } from '../../shared/contracts/approvals';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, ZNoData } from '../../shared/contracts/common';
import { ZStaffInvitationAccept, ZStaffInvite, ZStaffListAnswer, ZStaffMemberAnswer, ZStaffRoleChange } from '../../shared/contracts/staff';
import { ROLES } from '../../shared/staff-roles';
import type { AppContext } from '../context';
import { contextOf, publicContextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as staff from './service';

const staffIdParams = idParams("The staff member's _id.");

/** Managing staff (ADR 022): admins only; and the invitation link's first password. */
export function staffRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['staff'];

    api.get(
      '/admin/staff',
      {
        config: { access: 'staff', staffRoles: ROLES.admin },
        schema: { tags, summary: 'Every staff member with role, access, second factor and last sign-in', response: { 200: ZStaffListAnswer } },
      },
      async () => ({ data: await staff.listStaff({ ...context, actor: null }) }),
    );

    api.post(
      '/admin/staff',
      {
        config: { access: 'staff', staffRoles: ROLES.admin, ...perMinute(20) },
        schema: {
          tags,
          summary: 'Invite a staff member: an emailed link to set a password (audited)',
          body: ZStaffInvite,
          response: { 201: ZStaffMemberAnswer, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => send(reply, await staff.inviteStaff(contextOf(request, context), request.body)),
    );

    api.put(
      '/admin/staff/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.admin },
        schema: {
          tags,
          summary: "Change a staff member's role (audited)",
          params: staffIdParams,
          body: ZStaffRoleChange,
          response: { 200: ZStaffMemberAnswer, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => send(reply, await staff.changeStaffRole(contextOf(request, context), request.params.id, request.body.staffRole)),
    );

    api.post(
      '/admin/staff/:id/invitation',
      {
        config: { access: 'staff', staffRoles: ROLES.admin, ...perMinute(20) },
        schema: {
          tags,
          summary: 'Send an invited staff member a new link; the earlier one stops working (audited)',
          params: staffIdParams,
          response: { 200: ZStaffMemberAnswer },
        },
      },
      async (request, reply) => send(reply, await staff.resendStaffInvitation(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/admin/staff/:id/suspend',
      {
        config: { access: 'staff', staffRoles: ROLES.admin },
        schema: {
          tags,
          summary: "Suspend a staff member's back office access: their sessions end (audited)",
          params: staffIdParams,
          response: { 200: ZStaffMemberAnswer },
        },
      },
      async (request, reply) => send(reply, await staff.suspendStaff(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/admin/staff/:id/reinstate',
      {
        config: { access: 'staff', staffRoles: ROLES.admin },
        schema: {
          tags,
          summary: "Reinstate a suspended staff member's access (audited)",
          params: staffIdParams,
          response: { 200: ZStaffMemberAnswer },
        },
      },
      async (request, reply) => send(reply, await staff.reinstateStaff(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/auth/admin/invitation',
      {
        config: { access: 'public', ...perMinute(10) },
        schema: {
          tags: ['auth', 'staff'],
          summary: "An invited staff member's first password, from the emailed link",
          body: ZStaffInvitationAccept,
          response: { 200: ZNoData },
        },
      },
      async (request, reply) => send(reply, await staff.acceptStaffInvitation(publicContextOf(request, context), request.body)),
    );
  };
}
