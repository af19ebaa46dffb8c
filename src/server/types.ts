import type { Config } from './config';
import type { DB } from './db/database';
import type { User } from './db/schema';
import type { Mailer } from './mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: DB;
    mailer: Mailer;
  }
  interface FastifyRequest {
    /** The signed-in user, set by the session hook; null when the request carries no valid session. */
    user: User | null;
    sessionId: string | null;
  }
}

export {};
