import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../shared/contracts/common';
import type { AppContext } from '../context';
import { checkDatabase } from '../db/database';

const ZHealth = envelope(z.object({ status: z.enum(['ok', 'degraded']), database: z.object({ ok: z.boolean(), latencyMs: z.number() }) }));

/** Whether this process can serve: the database answers. Reveals nothing else (no versions). */
export function healthRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/health',
      { config: { access: 'public' }, schema: { tags: ['health'], summary: 'Is the bank serving?', response: { 200: ZHealth, 503: ZHealth } } },
      async (_request, reply) => {
        const database = await checkDatabase(context.db);
        return reply
          .status(database.ok ? 200 : 503)
          .send({ data: { status: database.ok ? 'ok' : 'degraded', database: { ok: database.ok, latencyMs: database.latencyMs } } });
      },
    );
  };
}
