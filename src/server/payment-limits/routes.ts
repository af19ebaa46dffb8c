import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCustomerIdParams } from '../../shared/contracts/common';
import { ZPaymentHoldAnswer, ZPaymentHoldRelease } from '../../shared/contracts/payment-holds';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { send } from '../plugins/reply';
import * as holds from './service';
import { ROLES } from '../../shared/staff-roles';

/** The back office's view of a customer's payment hold, and its release (staff only, audited). */
export function paymentHoldRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['customers', 'staff'];

    api.get(
      '/user/admin/:id/payment-hold',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: {
          tags,
          summary: "Whether a customer's outgoing payments are held after wrong transfer codes",
          params: ZCustomerIdParams,
          response: { 200: ZPaymentHoldAnswer },
        },
      },
      async (request) => ({ data: await holds.paymentHoldOf(context, request.params.id) }),
    );

    api.post(
      '/user/admin/:id/payment-hold/release',
      {
        config: { access: 'staff', staffRoles: ROLES.compliance },
        schema: {
          tags,
          summary: "Release a customer's held outgoing payments before the hold runs out (audited)",
          params: ZCustomerIdParams,
          body: ZPaymentHoldRelease,
          response: { 200: ZPaymentHoldAnswer },
        },
      },
      async (request, reply) => send(reply, await holds.releasePaymentHold(contextOf(request, context), request.params.id, request.body)),
    );
  };
}
