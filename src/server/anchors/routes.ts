import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAnchorAnswer, ZAnchorListAnswer, ZAnchorListQuery } from '../../shared/contracts/anchors';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as anchors from './service';
import { ROLES } from '../../shared/staff-roles';

/** The anchors on the general ledger page: bank staff only (ADR 014). */
export function anchorRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['reports', 'staff'];

    api.get(
      '/admin/ledger/anchors',
      {
        config: { access: 'staff', staffRoles: ROLES.finance },
        schema: {
          tags,
          summary: 'Anchors written to ANCHOR_FILE, newest first: the signed heads of the ledger and audit chains',
          querystring: ZAnchorListQuery,
          response: { 200: ZAnchorListAnswer },
        },
      },
      async (request) => ({ data: await anchors.listAnchors(contextOf(request, context), request.query) }),
    );

    // Each press seals, signs and appends a line: a few per minute at most.
    api.post(
      '/admin/ledger/anchors',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, ...perMinute(6) },
        schema: { tags, summary: 'Anchor now: sign both chain heads and append the line to ANCHOR_FILE (audited)', response: { 201: ZAnchorAnswer } },
      },
      async (request, reply) => send(reply, await anchors.anchorNow(contextOf(request, context))),
    );
  };
}
