import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCryptoDepositsResponse } from '../../shared/contracts/deposits';
import type { AppContext } from '../context';
import { cryptoDepositsAnswer, loadCryptoDeposits } from './service';

export function depositRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    // Validated when the app is built: a bad address stops the start instead of reaching a customer.
    const answer = cryptoDepositsAnswer(loadCryptoDeposits(context.config));
    api.get(
      '/deposit/crypto',
      {
        config: { access: 'customer' },
        schema: { tags: ['deposits'], summary: 'Where to send a crypto deposit', response: { 200: ZCryptoDepositsResponse } },
      },
      async () => answer,
    );
  };
}
