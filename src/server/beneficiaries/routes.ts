import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZBeneficiaryAnswer, ZBeneficiaryList, ZBeneficiaryRemoved, ZBeneficiaryRequest } from '../../shared/contracts/beneficiaries';
import { idParams } from '../../shared/contracts/common';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as beneficiaries from './service';

export function beneficiaryRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/beneficiaries',
      { config: { access: 'customer' }, schema: { tags: ['beneficiaries'], summary: 'My saved payees, by name', response: { 200: ZBeneficiaryList } } },
      async (request) => ({ data: await beneficiaries.myBeneficiaries(contextOf(request, context)) }),
    );

    api.post(
      '/beneficiaries',
      {
        config: { access: 'customer', ...perMinute(30) },
        schema: {
          tags: ['beneficiaries'],
          summary: 'Save a payee (saving one twice answers the saved one)',
          body: ZBeneficiaryRequest,
          response: { 200: ZBeneficiaryAnswer, 201: ZBeneficiaryAnswer },
        },
      },
      async (request, reply) => send(reply, await beneficiaries.saveBeneficiary(contextOf(request, context), request.body)),
    );

    api.delete(
      '/beneficiaries/:id',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['beneficiaries'],
          summary: 'Remove a saved payee',
          params: idParams("The saved payee's _id."),
          response: { 200: ZBeneficiaryRemoved },
        },
      },
      async (request, reply) => send(reply, await beneficiaries.removeBeneficiary(contextOf(request, context), request.params.id)),
    );
  };
}
