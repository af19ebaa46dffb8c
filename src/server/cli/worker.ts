import closeWithGrace from 'close-with-grace';
import { checkAnchorFile } from '../anchors/file';
import { loadConfig } from '../config';
import { createAppContext } from '../context';
import { readWrittenBy } from '../ledger/written';
import { startJobRunner } from '../jobs/runner';
import { createLogger } from '../lib/logger';
import { trackPool } from '../lib/metrics';
import { createMailer } from '../mail/mailer';
import { settleBankMode } from '../seed';
import { openCommandDatabase } from './database';

/** Connections the worker uses: the runner's listener and its jobs (JOB_CONCURRENCY), with room to spare. */
const WORKER_POOL_MAX = 8;
/** How long the running jobs may take to finish after SIGTERM. */
const WORKER_GRACE_MS = 20_000;

/**
 * `npm run worker`: runs the background jobs (mail, purges, schedules) and nothing else, for
 * operators who start the app with RUN_JOBS=false. It reads DATABASE_URL, or uses the embedded
 * PostgreSQL of DATA_DIR: the running one if the server is up, else it starts it (and stops it
 * when it stops). SIGTERM or SIGINT finish the running jobs, then exit 0.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  // The daily anchor runs here too (ADR 014): refuse to start without a writable ANCHOR_FILE.
  checkAnchorFile(config.anchorFile);
  const runtime = await openCommandDatabase(config, { poolMax: WORKER_POOL_MAX, log, migrate: true });
  // A worker started without the app's DEMO_MODE=false would send a real bank's mail to the development outbox.
  await settleBankMode(runtime.database.db, config.demoMode).catch(async (error: unknown) => {
    await runtime.stop();
    throw error;
  });
  trackPool(runtime.database.poolStats);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: (line) => log.info(line) });
  const context = createAppContext({ config, db: runtime.database.db, mailer, log });
  // The app's processes seal; what jobs here post they read back.
  readWrittenBy('none');
  const runner = await startJobRunner(context, runtime.database.pool);
  log.info(`${config.bankName} worker: running background jobs (mail: ${config.smtpUrl ? 'SMTP' : 'development transport'})`);
  closeWithGrace({ delay: WORKER_GRACE_MS, logger: false }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'uncaught error: stopping the worker');
    else log.info(`${signal ?? 'shutdown'}: stopping the worker (finishing running jobs)`);
    await runner.stop();
    await context.ledger.close();
    mailer.close();
    await runtime.stop();
  });
}

main().catch((error: unknown) => {
  console.error(`The worker failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
