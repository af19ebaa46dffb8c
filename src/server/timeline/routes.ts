import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCustomerIdParams } from '../../shared/contracts/common';
import { ZNoteAnswer, ZNoteRequest, ZTimelineAnswer, ZTimelineQuery } from '../../shared/contracts/timeline';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as timeline from './service';
import { ROLES } from '../../shared/staff-roles';

/** The back office's user page as one place: the customer's timeline and staff notes. Bank staff only. */
export function timelineRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['customers', 'staff'];

    api.get(
      '/user/admin/:id/timeline',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: {
          tags,
          summary: "A user's entries, sign-ins, identity decisions, loans, card requests and staff notes, newest first (paged by key)",
          params: ZCustomerIdParams,
          querystring: ZTimelineQuery,
          response: { 200: ZTimelineAnswer },
        },
      },
      async (request) => ({ data: await timeline.customerTimeline(contextOf(request, context), request.params.id, request.query) }),
    );

    api.post(
      '/user/admin/:id/notes',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff, ...perMinute(30) },
        schema: {
          tags,
          summary: "Add a staff note to a user's page (append-only, audited)",
          params: ZCustomerIdParams,
          body: ZNoteRequest,
          response: { 201: ZNoteAnswer },
        },
      },
      async (request, reply) => send(reply, await timeline.addNote(contextOf(request, context), request.params.id, request.body.body)),
    );
  };
}
