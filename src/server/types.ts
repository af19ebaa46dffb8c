import type { Config } from './config';
import type { DB } from './db/database';
import type { Mailer } from './mail/mailer';

// TRANSITION: removed once every domain takes its context explicitly.
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: DB;
    mailer: Mailer;
  }
}

export {};
