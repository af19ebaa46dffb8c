import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAuditFiltersAnswer, ZAuditListAnswer, ZAuditQuery } from '../../shared/contracts/admin';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import * as auditLog from './service';
import { ROLES } from '../../shared/staff-roles';

/** The audit log in the back office: bank staff only. */
export function auditRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['audit', 'staff'];

    api.get(
      '/admin/audit',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: {
          tags,
          summary: 'Staff actions, newest first, by staff member, customer or action',
          querystring: ZAuditQuery,
          response: { 200: ZAuditListAnswer },
        },
      },
      async (request) => ({ data: await auditLog.listAudit(contextOf(request, context), request.query) }),
    );

    api.get(
      '/admin/audit/filters',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: { tags, summary: 'The staff members and actions to filter by', response: { 200: ZAuditFiltersAnswer } },
      },
      async (request) => ({ data: await auditLog.auditFilters(contextOf(request, context)) }),
    );
  };
}
