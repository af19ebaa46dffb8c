import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import { ZStandingOrderAnswer, ZStandingOrderCodeAnswer, ZStandingOrderListAnswer, ZStandingOrderRequest } from '../../shared/contracts/standing-orders';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { ticketOf } from '../plugins/idempotency';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as standingOrders from './service';

export function standingOrderRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/standing-orders',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['standing-orders'],
          summary: 'My standing orders: active ones first (with the next run date), then finished and cancelled ones, each with its last result',
          response: { 200: ZStandingOrderListAnswer },
        },
      },
      async (request) => ({ data: await standingOrders.myStandingOrders(contextOf(request, context)) }),
    );

    // As a transfer: the first call emails a code bound to the mandate (rate-limited); the call with the code creates it.
    api.post(
      '/standing-orders',
      {
        config: { access: 'customer', idempotency: true, ...perMinute(30) },
        schema: {
          tags: ['standing-orders'],
          summary:
            'Set up a standing order or a scheduled payment (to another account: two calls, the IMS code then the order; between my own accounts: one call)',
          body: ZStandingOrderRequest,
          response: { 200: ZStandingOrderCodeAnswer, 201: ZStandingOrderAnswer },
        },
      },
      async (request, reply) => send(reply, await standingOrders.createStandingOrder(contextOf(request, context), request.body, ticketOf(request))),
    );

    api.delete(
      '/standing-orders/:id',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['standing-orders'],
          summary: 'Cancel a standing order: no further payment is made',
          params: idParams("The standing order's id."),
          response: { 200: ZStandingOrderAnswer },
        },
      },
      async (request, reply) => send(reply, await standingOrders.cancelStandingOrder(contextOf(request, context), request.params.id)),
    );
  };
}
