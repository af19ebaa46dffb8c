import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZUserAnswer } from '../../shared/contracts/user';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import * as users from './service';

export function userRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/user/me',
      { config: { access: 'user' }, schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: ZUserAnswer } } },
      async (request) => ({ data: await users.me(contextOf(request, context)) }),
    );
  };
}
