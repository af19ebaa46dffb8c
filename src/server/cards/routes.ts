import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCardQueue, ZCardQueueQuery, ZCardRequest, ZCardRequestAnswer, ZCardRequestList, ZCardStatusChange } from '../../shared/contracts/cards';
import { envelope, idParams } from '../../shared/contracts/common';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as cards from './service';
import { ROLES } from '../../shared/staff-roles';

export function cardRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.post(
      '/cards/requests',
      {
        config: { access: 'customer', ...perMinute(10) },
        schema: { tags: ['cards'], summary: 'Ask for a debit or credit card', body: ZCardRequest, response: { 201: ZCardRequestAnswer } },
      },
      async (request, reply) => send(reply, await cards.requestCard(contextOf(request, context), request.body.cardType)),
    );

    api.get(
      '/cards/requests',
      { config: { access: 'customer' }, schema: { tags: ['cards'], summary: 'My card requests, newest first', response: { 200: ZCardRequestList } } },
      async (request) => ({ data: await cards.myCardRequests(contextOf(request, context)) }),
    );

    api.get(
      '/admin/cards/requests',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService },
        schema: { tags: ['cards', 'staff'], summary: 'The card request queue', querystring: ZCardQueueQuery, response: { 200: ZCardQueue } },
      },
      async (request) => {
        const { status, ...page } = request.query;
        return { data: await cards.cardRequestQueue(contextOf(request, context), status, page) };
      },
    );

    api.patch(
      '/admin/cards/requests/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService },
        schema: {
          tags: ['cards', 'staff'],
          summary: 'Approve, decline or ship a card request',
          params: idParams("The card request's _id."),
          body: ZCardStatusChange,
          response: { 200: envelope(ZCardRequestAnswer.shape.data) },
        },
      },
      async (request, reply) => send(reply, await cards.changeCardRequestStatus(contextOf(request, context), request.params.id, request.body)),
    );
  };
}
