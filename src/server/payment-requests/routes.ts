import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import {
  PAYMENT_REQUEST_RATE_WINDOW_MS,
  PAYMENT_REQUESTS_PER_HOUR_MAX,
  ZPaymentRequestAnswer,
  ZPaymentRequestCodeAnswer,
  ZPaymentRequestCreate,
  ZPaymentRequestListQuery,
  ZPaymentRequestListsAnswer,
  ZPaymentRequestPaidAnswer,
  ZPaymentRequestPay,
} from '../../shared/contracts/payment-requests';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { ticketOf } from '../plugins/idempotency';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as paymentRequests from './service';

const requestIdParams = idParams("The payment request's id.");

/**
 * Asking for money is limited per customer, not per address: the limit is on how often one
 * customer can ping others (a route hook, so it runs after the sign-in hook has named the user).
 */
const perCustomerPerHour = {
  rateLimit: {
    max: PAYMENT_REQUESTS_PER_HOUR_MAX,
    timeWindow: PAYMENT_REQUEST_RATE_WINDOW_MS,
    keyGenerator: (request: { user: { id: string } | null; ip: string }) => (request.user ? `user:${request.user.id}` : request.ip),
  },
};

export function paymentRequestRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/payment-requests',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['payment-requests'],
          summary: 'Requests for money I received and sent, newest first',
          querystring: ZPaymentRequestListQuery,
          response: { 200: ZPaymentRequestListsAnswer },
        },
      },
      async (request) => ({ data: await paymentRequests.myRequests(contextOf(request, context), request.query) }),
    );

    api.post(
      '/payment-requests',
      {
        config: { access: 'customer', ...perCustomerPerHour },
        schema: {
          tags: ['payment-requests'],
          summary: 'Ask another customer (an email or an account number) for money; the same answer whether or not they are a customer',
          body: ZPaymentRequestCreate,
          response: { 201: ZPaymentRequestAnswer },
        },
      },
      async (request, reply) => send(reply, await paymentRequests.requestMoney(contextOf(request, context), request.body)),
    );

    // The first call emails a code (rate-limited like a transfer's); the call with the code pays.
    api.post(
      '/payment-requests/:id/pay',
      {
        config: { access: 'customer', idempotency: true, ...perMinute(30) },
        schema: {
          tags: ['payment-requests'],
          summary: 'Pay a request addressed to me (two calls: the code, then the payment)',
          params: requestIdParams,
          body: ZPaymentRequestPay,
          response: { 200: ZPaymentRequestCodeAnswer, 201: ZPaymentRequestPaidAnswer },
        },
      },
      async (request, reply) => send(reply, await paymentRequests.payRequest(contextOf(request, context), request.params.id, request.body, ticketOf(request))),
    );

    api.post(
      '/payment-requests/:id/decline',
      {
        config: { access: 'customer', ...perMinute(30) },
        schema: {
          tags: ['payment-requests'],
          summary: 'Decline a request addressed to me',
          params: requestIdParams,
          response: { 200: ZPaymentRequestAnswer },
        },
      },
      async (request, reply) => send(reply, await paymentRequests.declineRequest(contextOf(request, context), request.params.id)),
    );

    api.post(
      '/payment-requests/:id/cancel',
      {
        config: { access: 'customer', ...perMinute(30) },
        schema: {
          tags: ['payment-requests'],
          summary: 'Cancel a pending request I sent (the payer is told)',
          params: requestIdParams,
          response: { 200: ZPaymentRequestAnswer },
        },
      },
      async (request, reply) => send(reply, await paymentRequests.cancelRequest(contextOf(request, context), request.params.id)),
    );
  };
}
