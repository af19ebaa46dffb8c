import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../shared/contracts/common';
import type { AppContext } from '../context';
import { pendingMigrations } from '../db/migrate';

const ZLive = envelope(z.object({ status: z.enum(['ok']) }));
const ZReady = envelope(z.object({ status: z.enum(['ok', 'unavailable']) }));

/** A readiness probe answers within this, whatever the database does (a load balancer waits less). */
export const READY_TIMEOUT_MS = 2000;

/** The database answers and has every migration this code needs. */
async function isReady(context: AppContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), READY_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([pendingMigrations(context.db), timeout])).length === 0;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for the load balancer and the orchestrator. Live: the process runs (touches nothing, so it
 * answers while the database is away: restarting the app would not bring PostgreSQL back). Ready
 * (and /health): the database is reachable and migrated, so requests can be served. Neither
 * reveals anything else (no versions, no latencies).
 */
export function healthRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/health/live',
      { config: { access: 'public' }, schema: { tags: ['health'], summary: 'Is the process running?', response: { 200: ZLive } } },
      async () => ({ data: { status: 'ok' as const } }),
    );
    for (const url of ['/health/ready', '/health']) {
      api.get(
        url,
        {
          config: { access: 'public' },
          schema: { tags: ['health'], summary: 'Can the bank serve requests (database reachable and migrated)?', response: { 200: ZReady, 503: ZReady } },
        },
        async (_request, reply) => {
          const ok = await isReady(context);
          return reply.status(ok ? 200 : 503).send({ data: { status: ok ? 'ok' : 'unavailable' } });
        },
      );
    }
  };
}
