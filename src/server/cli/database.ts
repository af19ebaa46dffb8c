import fs from 'node:fs';
import type { Config } from '../config';
import { createDatabase, type DatabaseHandle } from '../db/database';
import { runningEmbeddedUrl } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { installJobSchema } from '../jobs/runner';
import { createLogger, type Logger } from '../lib/logger';
import { openRuntime } from '../runtime';

/**
 * The database a command works on: DATABASE_URL, or the embedded PostgreSQL of DATA_DIR (the
 * running server's when it is up, else started here and stopped with the command, schema brought
 * up to date as the server does). `migrate`: bring a DATABASE_URL's schema up to date too (the
 * worker, which may be the first process of a new bank to start); the other commands only read it.
 */
export async function openCommandDatabase(
  config: Config,
  options: { poolMax: number; log?: Logger; migrate?: boolean },
): Promise<{ database: DatabaseHandle; stop(): Promise<void> }> {
  const url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  if (url) {
    const database = createDatabase(url, { max: options.poolMax, log: options.log });
    if (options.migrate) {
      const log = options.log ?? createLogger(config);
      await migrateToLatest(database.db, { log: (line) => log.warn(line) });
      await installJobSchema(database.pool, log);
    }
    return { database, stop: () => database.close() };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const runtime = await openRuntime(config, { poolMax: options.poolMax, databaseLog: options.log });
  return { database: runtime.database, stop: () => runtime.stop() };
}

/** Runs a one-shot command: its exit code, or 2 with one line when it could not run. */
export function runCommand(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name} could not run: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
