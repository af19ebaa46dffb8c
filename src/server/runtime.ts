import path from 'node:path';
import type { Config } from './config';
import { assertPostgresVersion, createDatabase, type DatabaseHandle, type DatabaseLog } from './db/database';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded';
import { migrateToLatest } from './db/migrate';
import { installJobSchema } from './jobs/runner';
import { createLogger } from './lib/logger';

export interface Runtime {
  database: DatabaseHandle;
  embedded: EmbeddedServer | null;
  /** Where the database is (the embedded one's local URL when DATABASE_URL is unset): cluster workers connect there. */
  databaseUrl: string;
  databaseLabel: string;
  stop(): Promise<void>;
}

/**
 * Opens the configured PostgreSQL (or starts the embedded one) and brings its schema up to date:
 * the bank's migrations, then the job queue's (graphile-worker's schema), each once under a lock.
 * `databaseLog`: where lost connections and host changes are reported (the process's logger by default);
 * `channels`: what the handle LISTENs on (a process that serves HTTP: the session cache's).
 */
export async function openRuntime(
  config: Config,
  options: { log?: (line: string) => void; poolMax?: number; databaseLog?: DatabaseLog; channels?: readonly string[] } = {},
): Promise<Runtime> {
  let embedded: EmbeddedServer | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), { log: options.log, watchdog: options.databaseLog ?? createLogger(config) });
    await embedded.createDatabase('ledgerline');
    url = embedded.url('ledgerline');
  }
  const log = options.databaseLog ?? createLogger(config);
  const database = createDatabase(url, { max: options.poolMax, log, channels: options.channels });
  await assertPostgresVersion(database.db);
  await migrateToLatest(database.db, { log: (line) => log.warn({}, line) });
  await installJobSchema(database.pool, createLogger(config));
  return {
    database,
    embedded,
    databaseUrl: url,
    databaseLabel: embedded ? `embedded PostgreSQL (data in ${path.join(config.dataDir, 'postgres')})` : 'PostgreSQL at DATABASE_URL',
    async stop() {
      await database.close();
      if (embedded) await embedded.stop();
    },
  };
}
