/**
 * The app under test for bench/admin.ts, in its own process so the load generator does not share
 * its event loop. Reads the database URL from BENCH_DATABASE_URL, listens on a free loopback port
 * and reports it to the parent over IPC.
 */
import { buildApp } from '../src/server/app';
import { servingChannels } from '../src/server/auth/session-cache';
import { loadConfig } from '../src/server/config';
import { createAppContext } from '../src/server/context';
import { createDatabase } from '../src/server/db/database';
import { createLogger } from '../src/server/lib/logger';
import { createMailer } from '../src/server/mail/mailer';

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is required');
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: process.env.BENCH_DATA_DIR ?? '/tmp/ledgerline-bench-admin-data',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      DEMO_MODE: 'true',
    }),
    rateLimits: false,
  };
  // As a serving process: with the session cache (ADR 008).
  const database = createDatabase(url, { channels: servingChannels(config) });
  database.pool.on('error', () => {});
  const context = createAppContext({
    config,
    db: database.db,
    mailer: createMailer({ from: config.mailFrom }),
    log: createLogger(config),
    notices: database.notices,
  });
  const app = await buildApp(context);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('message', async (message) => {
    if (message === 'cpu') {
      const usage = process.cpuUsage();
      process.send?.({ cpuMicros: usage.user + usage.system });
      return;
    }
    if (message === 'stop') {
      await app.close();
      await database.close();
      process.exit(0);
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
