import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCustomerIdParams, ZNoData } from '../../shared/contracts/common';
import { ZLatestRecoveryAnswer, ZMyRecoveryAnswer, ZRecoveryAnswer, ZRecoveryCancelByLink, ZRecoveryStart } from '../../shared/contracts/recovery';
import { ROLES } from '../../shared/staff-roles';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as recovery from './service';

/**
 * Support's recovery of a customer who lost every factor (ADR 025): staff start, read and withdraw
 * it on the user page; the customer cancels it from the mailed link or a signed-in session.
 */
export function recoveryRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const staffTags = ['customers', 'staff', 'second factor'];

    api.get(
      '/user/admin/:id/recovery',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: {
          tags: staffTags,
          summary: "The customer's newest account recovery (null when none)",
          params: ZCustomerIdParams,
          response: { 200: ZLatestRecoveryAnswer },
        },
      },
      async (request) => ({ data: await recovery.latestRecovery(context, request.params.id) }),
    );

    api.post(
      '/user/admin/:id/recovery',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService, ...perMinute(10) },
        schema: {
          tags: staffTags,
          summary:
            'Start recovering a customer who lost every second factor, after an identity check (takes effect in 24 hours; audited; the customer is emailed)',
          params: ZCustomerIdParams,
          body: ZRecoveryStart,
          response: { 201: ZRecoveryAnswer },
        },
      },
      async (request, reply) => send(reply, await recovery.startRecovery(contextOf(request, context), request.params.id, request.body)),
    );

    api.post(
      '/user/admin/:id/recovery/cancel',
      {
        config: { access: 'staff', staffRoles: ROLES.customerService },
        schema: {
          tags: staffTags,
          summary: "Withdraw a customer's pending account recovery (audited)",
          params: ZCustomerIdParams,
          response: { 200: ZNoData },
        },
      },
      async (request, reply) => send(reply, await recovery.cancelByStaff(contextOf(request, context), request.params.id)),
    );

    api.get(
      '/auth/recovery',
      {
        config: { access: 'customer' },
        schema: { tags: ['auth', 'second factor'], summary: 'A pending support recovery of my account, if any', response: { 200: ZMyRecoveryAnswer } },
      },
      async (request) => ({ data: await recovery.myPendingRecovery(contextOf(request, context)) }),
    );

    api.post(
      '/auth/recovery/cancel',
      {
        config: { access: 'customer', ...perMinute(10) },
        schema: { tags: ['auth', 'second factor'], summary: 'Cancel a pending support recovery of my account (it was not me)', response: { 200: ZNoData } },
      },
      async (request, reply) => send(reply, await recovery.cancelMine(contextOf(request, context))),
    );

    api.post(
      '/account-recovery/cancel',
      {
        config: { access: 'public', ...perMinute(10) },
        schema: {
          tags: ['auth', 'second factor'],
          summary: "Cancel a pending support recovery with the mailed link's token (no sign-in needed)",
          body: ZRecoveryCancelByLink,
          response: { 200: ZNoData },
        },
      },
      async (request, reply) => send(reply, await recovery.cancelByLink(context, request.body.token)),
    );
  };
}
