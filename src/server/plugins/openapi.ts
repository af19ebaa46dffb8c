import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { SESSION_COOKIE } from './auth';
import { htmlContentSecurityPolicy } from './security';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/**
 * Must be registered before the routes: @fastify/swagger collects every route as it is added.
 * Only /api routes are described (not the web app, /metrics or /dev/mailbox); their schemas are
 * the shared zod contracts, turned into JSON Schema by the same provider that validates with them.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.bankName} API`,
        version: '1.0.0',
        description:
          'Every call answers `{ data, message? }` on success and `{ message, code, fields? }` on failure. ' +
          'Money calls take an `Idempotency-Key` header: a retry with the same key and body is answered as the first attempt and posts nothing. ' +
          'Amounts are decimal dollars with at most 2 places.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by sign-in (browsers).' },
          bearer: { type: 'http', scheme: 'bearer', description: 'The token answered by sign-in (API clients).' },
        },
      },
    },
    transform: (document) => {
      if (!document.url.startsWith('/api/')) return { schema: { ...document.schema, hide: true }, url: document.url };
      const transformed = jsonSchemaTransform(document);
      return { ...transformed, schema: keepRefSiblings(transformed.schema) as typeof transformed.schema };
    },
    transformObject: jsonSchemaTransformObject,
  });
}

/**
 * @fastify/swagger drops every keyword beside a `$ref` in an operation's schemas (OpenAPI 3.0's rule;
 * 3.1 allows them), so a field whose type is a component (`passkeyAssertion`, `payeeCheck`) would
 * lose its description. Such a field is written `{ allOf: [{ $ref }], description }` instead, which
 * every version reads the same way. Components keep their `$ref` siblings as they are.
 */
function keepRefSiblings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keepRefSiblings);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, child]) => [key, keepRefSiblings(child)] as const);
  const { $ref, ...siblings } = Object.fromEntries(entries) as Record<string, unknown>;
  if (typeof $ref !== 'string' || Object.keys(siblings).length === 0) return Object.fromEntries(entries);
  return { ...siblings, allOf: [{ $ref }] };
}

/** The document and a reader for it, both served by the bank itself (no other host, strict CSP). */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(app.swagger()));
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { validatorUrl: null, deepLinking: true, tryItOutEnabled: false },
    // Swagger UI's page has no inline script: the bank's own strict policy fits it.
    staticCSP: htmlContentSecurityPolicy([]),
  });
}
