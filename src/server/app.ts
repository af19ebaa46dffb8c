import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { REQUEST_BODY_BYTES_MAX, UPLOAD_BYTES_MAX } from '../shared/limits';
import { adminRoutes } from './admin/routes';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { beneficiaryRoutes } from './beneficiaries/routes';
import { cardRoutes } from './cards/routes';
import { contactRoutes } from './contacts/routes';
import type { AppContext } from './context';
import { customerRoutes } from './customers/routes';
import { depositRoutes } from './deposits/routes';
import { devMailboxRoutes } from './dev/mailbox';
import { kycRoutes } from './kyc/routes';
import { loanRoutes } from './loans/routes';
import { registerAuth } from './plugins/auth';
import { frameworkErrors, registerErrorHandler } from './plugins/errors';
import { healthRoutes } from './plugins/health';
import { registerIdempotency } from './plugins/idempotency';
import { registerJsonParser } from './plugins/json';
import { registerApiDocs, registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerWebApp } from './plugins/web';
import { profileRoutes } from './profile/routes';
import { transactionRoutes } from './transactions/routes';
import { userRoutes } from './users/routes';

export interface AppOptions {
  /** Serve the built web app (off for API tests). */
  serveWeb?: boolean;
}

/**
 * Builds the bank's HTTP app from its dependencies. Everything is composed here, in order: the
 * parsers and error handler, security headers, cookies, rate limits and uploads, the OpenAPI
 * collector, then the /api scope (sign-in and idempotency hooks, then each domain's routes,
 * each given the context it needs), the API reader, and the web app.
 */
export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const app = Fastify({
    loggerInstance: context.log as FastifyBaseLogger,
    bodyLimit: REQUEST_BODY_BYTES_MAX,
    trustProxy: config.isProduction,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerJsonParser(app);
  registerErrorHandler(app, context);
  registerSecurityHeaders(app, config);
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    ...(config.rateLimits ? {} : { allowList: () => true }),
  });
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_BYTES_MAX, files: 4, fields: 20, fieldSize: 10_000, parts: 30 } });
  await registerOpenApi(app, config);

  await app.register(
    async (api) => {
      registerAuth(api, context);
      registerIdempotency(api, context);
      await api.register(healthRoutes(context));
      await api.register(authRoutes(context));
      await api.register(userRoutes(context));
      await api.register(profileRoutes(context));
      await api.register(transactionRoutes(context));
      await api.register(contactRoutes(context));
      await api.register(loanRoutes(context));
      await api.register(kycRoutes(context));
      await api.register(cardRoutes(context));
      await api.register(beneficiaryRoutes(context));
      await api.register(depositRoutes(context));
      await api.register(customerRoutes(context));
      await api.register(auditRoutes(context));
      await api.register(adminRoutes(context));
    },
    { prefix: '/api' },
  );
  await registerApiDocs(app);

  if (!config.isProduction) await app.register(devMailboxRoutes(context));
  if (options.serveWeb) await registerWebApp(app);
  else app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: 'Not found', code: 'not_found' }));
  return app;
}
