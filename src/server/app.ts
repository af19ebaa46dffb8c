import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { REQUEST_BODY_BYTES_MAX, UPLOAD_BYTES_MAX } from '../shared/limits';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { registerSessionHook } from './auth/sessions';
import { beneficiaryRoutes } from './beneficiaries/routes';
import { cardRoutes } from './cards/routes';
import type { Config } from './config';
import { contactRoutes } from './contacts/routes';
import { checkDatabase, type DB } from './db/database';
import { depositRoutes } from './deposits/routes';
import { devMailboxRoutes } from './dev/mailbox';
import { registerErrorHandler } from './http/errors';
import { registerSecurityHeaders } from './http/security';
import { registerWebApp } from './http/web';
import { kycRoutes } from './kyc/routes';
import { loanRoutes } from './loans/routes';
import type { Mailer } from './mail/mailer';
import { profileRoutes } from './profile/routes';
import { transactionRoutes } from './transactions/routes';
import { userRoutes } from './users/routes';
import './types';

export interface AppDependencies {
  config: Config;
  db: DB;
  mailer: Mailer;
  /** Serve the built web app (off for API tests). */
  serveWeb?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** Send the app's own log (with its serializers) to this stream: tests read what gets logged. */
  logStream?: NodeJS.WritableStream;
}

/** The request log never carries a query string (reset links carry tokens), a body or a cookie. */
const logSerializers = {
  req(request: { method: string; url: string; ip?: string }) {
    return { method: request.method, url: request.url.split('?')[0], ip: request.ip };
  },
};

export async function buildApp(dependencies: AppDependencies): Promise<FastifyInstance> {
  const { config } = dependencies;
  const app = Fastify({
    logger: dependencies.logger ?? {
      level: dependencies.logStream ? 'trace' : config.logLevel,
      serializers: logSerializers,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(dependencies.logStream ? { stream: dependencies.logStream } : {}),
    },
    bodyLimit: REQUEST_BODY_BYTES_MAX,
    trustProxy: config.isProduction,
  });
  app.decorate('config', config);
  app.decorate('db', dependencies.db);
  app.decorate('mailer', dependencies.mailer);

  registerErrorHandler(app);
  registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    ...(config.rateLimits ? {} : { allowList: () => true }),
  });
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_BYTES_MAX, files: 4, fields: 20, fieldSize: 10_000, parts: 30 } });

  await app.register(
    async (api) => {
      registerSessionHook(api);
      api.get('/health', async (_request, reply) => {
        const database = await checkDatabase(app.db);
        return reply.status(database.ok ? 200 : 503).send({ data: { status: database.ok ? 'ok' : 'degraded', database } });
      });
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(profileRoutes);
      await api.register(transactionRoutes);
      await api.register(contactRoutes);
      await api.register(loanRoutes);
      await api.register(kycRoutes);
      await api.register(cardRoutes);
      await api.register(beneficiaryRoutes);
      await api.register(depositRoutes);
      await api.register(adminRoutes);
    },
    { prefix: '/api' },
  );

  if (!config.isProduction) await app.register(devMailboxRoutes);
  if (dependencies.serveWeb) await registerWebApp(app);
  else app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: 'Not found', code: 'not_found' }));
  return app;
}
