import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { REQUEST_BODY_BYTES_MAX, UPLOAD_BYTES_MAX } from '../shared/limits';
import { adminRoutes } from './admin/routes';
import { anchorRoutes } from './anchors/routes';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { beneficiaryRoutes } from './beneficiaries/routes';
import { bulkPaymentRoutes } from './bulk-payments/routes';
import { cardRoutes } from './cards/routes';
import { contactRoutes } from './contacts/routes';
import type { TrustProxy } from './config';
import type { AppContext } from './context';
import { customerRoutes } from './customers/routes';
import { depositRoutes } from './deposits/routes';
import { factorRoutes } from './factors/routes';
import { devMailboxRoutes } from './dev/mailbox';
import { kycRoutes } from './kyc/routes';
import { loanRoutes } from './loans/routes';
import { notificationRoutes } from './notifications/routes';
import { paymentRequestRoutes } from './payment-requests/routes';
import { recoveryRoutes } from './recovery/routes';
import { approvalRoutes } from './approvals/routes';
import { registerAuth } from './plugins/auth';
import { frameworkErrors, registerErrorHandler } from './plugins/errors';
import { healthRoutes } from './plugins/health';
import { journalRoutes } from './journal/routes';
import { registerIdempotency } from './plugins/idempotency';
import { registerJsonParser } from './plugins/json';
import { registerMetrics } from './plugins/metrics';
import { registerOriginCheck } from './plugins/origin';
import { registerApiDocs, registerOpenApi } from './plugins/openapi';
import { rateLimitStore, registerMoneyCallLimit } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { registerWebApp } from './plugins/web';
import { paymentHoldRoutes } from './payment-limits/routes';
import { profileRoutes } from './profile/routes';
import { queueRoutes } from './queues/routes';
import { standingOrderRoutes } from './standing-orders/routes';
import { staffRoutes } from './staff/routes';
import { statementRoutes } from './statements/routes';
import { reportRoutes } from './reports/routes';
import { timelineRoutes } from './timeline/routes';
import { transactionRoutes } from './transactions/routes';
import { userRoutes } from './users/routes';
import type { MetricsSource } from './lib/metrics';

/**
 * TRUST_PROXY as Fastify takes it. A hop count N trusts the nearest N hops, whatever their address
 * (Fastify's own numeric option trusts none), so the client is the address the Nth proxy saw.
 */
function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return trust === 0 ? false : (_address, hop) => hop < trust;
}

export interface AppOptions {
  /** Serve the built web app (off for API tests). */
  serveWeb?: boolean;
  /** What GET /metrics answers: this process's metrics unless told (a cluster worker asks the primary). */
  metrics?: MetricsSource;
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
    // Off unless the operator names the proxies (TRUST_PROXY): otherwise X-Forwarded-For is anyone's to write.
    trustProxy: trustProxyOption(config.trustProxy),
    // Unique across processes and instances, so a request id finds one request in the merged logs.
    genReqId: () => randomUUID(),
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerJsonParser(app);
  registerErrorHandler(app, context);
  registerMetrics(app, config, options.metrics);
  // The id every log line of this request carries: a customer or a proxy log can quote it.
  app.addHook('onRequest', async (request, reply) => void reply.header('X-Request-Id', request.id));
  registerSecurityHeaders(app, config);
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    // Counted in PostgreSQL, so every process and instance shares one count per address.
    store: rateLimitStore(context.db, context.log),
    ...(config.rateLimits ? {} : { allowList: () => true }),
  });
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_BYTES_MAX, files: 4, fields: 20, fieldSize: 10_000, parts: 30 } });
  await registerOpenApi(app, config);

  await app.register(
    async (api) => {
      // Before the sign-in hook: a cross-site request with the cookie is refused before any lookup.
      registerOriginCheck(api, config);
      registerAuth(api, context);
      registerMoneyCallLimit(api, context);
      registerIdempotency(api, context);
      await api.register(healthRoutes(context));
      await api.register(authRoutes(context));
      await api.register(factorRoutes(context));
      await api.register(userRoutes(context));
      await api.register(profileRoutes(context));
      await api.register(transactionRoutes(context));
      await api.register(bulkPaymentRoutes(context));
      await api.register(contactRoutes(context));
      await api.register(loanRoutes(context));
      await api.register(kycRoutes(context));
      await api.register(cardRoutes(context));
      await api.register(beneficiaryRoutes(context));
      await api.register(depositRoutes(context));
      await api.register(customerRoutes(context));
      await api.register(paymentHoldRoutes(context));
      await api.register(recoveryRoutes(context));
      await api.register(auditRoutes(context));
      await api.register(adminRoutes(context));
      await api.register(anchorRoutes(context));
      await api.register(queueRoutes(context));
      await api.register(notificationRoutes(context));
      await api.register(statementRoutes(context));
      await api.register(standingOrderRoutes(context));
      await api.register(paymentRequestRoutes(context));
      await api.register(journalRoutes(context));
      await api.register(reportRoutes(context));
      await api.register(timelineRoutes(context));
      await api.register(staffRoutes(context));
      await api.register(approvalRoutes(context));
    },
    { prefix: '/api' },
  );
  await registerApiDocs(app);

  if (config.devMailbox) await app.register(devMailboxRoutes(context));
  if (options.serveWeb) await registerWebApp(app, { demoMode: config.demoMode });
  else app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: 'Not found', code: 'not_found' }));
  return app;
}
