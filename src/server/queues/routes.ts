import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZJobAnswer, ZJobIdParams, ZJobListAnswer, ZJobListQuery } from '../../shared/contracts/queues';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as queues from './service';
import { ROLES } from '../../shared/staff-roles';

/** The background jobs' queue in the back office: bank staff only. */
export function queueRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['jobs', 'staff'];

    api.get(
      '/admin/jobs',
      {
        config: { access: 'staff', staffRoles: ROLES.finance },
        schema: {
          tags,
          summary: 'Background jobs: waiting, running and failed (with the error)',
          querystring: ZJobListQuery,
          response: { 200: ZJobListAnswer },
        },
      },
      async (request) => {
        const { state, ...page } = request.query;
        return { data: await queues.jobList(contextOf(request, context), state, page) };
      },
    );

    api.post(
      '/admin/jobs/:id/retry',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, ...perMinute(30) },
        schema: { tags, summary: 'Run a failed job again now (audited)', params: ZJobIdParams, response: { 200: ZJobAnswer } },
      },
      async (request, reply) => send(reply, await queues.retryJob(contextOf(request, context), request.params.id)),
    );
  };
}
