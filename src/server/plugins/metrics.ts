import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { unauthorized } from '../lib/errors';
import { httpRequestDuration, localMetrics, type MetricsSource } from '../lib/metrics';

export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares in constant time (hashes of equal length), so the token cannot be guessed byte by byte. */
function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * Times every request by its route pattern (`/api/cards/:id`, never the raw URL, so the number of
 * series stays bounded), and serves GET /metrics in Prometheus' format. Outside /api: it is for
 * the operator's scraper, not the API's clients, and is not in the OpenAPI document. With
 * METRICS_TOKEN set it needs `Authorization: Bearer <token>`.
 */
export function registerMetrics(app: FastifyInstance, config: Pick<Config, 'metricsToken'>, source: MetricsSource = localMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (config.metricsToken && !bearerMatches(request.headers.authorization, config.metricsToken)) {
      reply.header('WWW-Authenticate', 'Bearer');
      throw unauthorized('A valid metrics token is required.');
    }
    const page = await source();
    return reply.header('Content-Type', page.contentType).header('Cache-Control', 'no-store').send(page.text);
  });
}
