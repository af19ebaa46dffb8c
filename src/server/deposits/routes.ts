import type { FastifyInstance } from 'fastify';
import { requireCustomer } from '../auth/sessions';
import { loadCryptoDeposits, publicOption } from './options';

export async function depositRoutes(app: FastifyInstance): Promise<void> {
  // Validated when the app is built: a bad address stops the start instead of reaching a customer.
  const settings = loadCryptoDeposits(app.config);
  const options = settings.options.map(publicOption);
  app.get('/deposit/crypto', { preHandler: requireCustomer }, async () => ({ data: options, demo: settings.demo }));
}
