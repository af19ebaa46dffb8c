import cluster, { type Worker } from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import QRCode from 'qrcode';
import { checkAnchorFile } from './anchors/file';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { type AppContext, createAppContext } from './context';
import { servingChannels } from './auth/session-cache';
import { createDatabase, type DatabaseHandle, type DB } from './db/database';
import { describeDatabaseError, isDatabaseUnavailable } from './db/errors';
import { startJobRunner } from './jobs/runner';
import { loadCryptoDeposits } from './deposits/service';
import { ClusterLedger, serveClusterLedger } from './ledger/cluster';
import { SEAL_INTERVAL_MS, sealAll, sealPending, startSealer } from './ledger/sealer';
import { readWrittenBy } from './ledger/written';
import { sealAuditAll, sealAuditPending } from './audit/sealer';
import { wakeLedgerNotifier } from './notifications/ledger-notifier';
import { createLogger, type Logger } from './lib/logger';
import { messageType } from './lib/ipc';
import { clusterWorkerMetrics, serveClusterMetrics, trackPool } from './lib/metrics';
import { HandedConnections, receiveConnections, shareConnections } from './lib/shared-port';
import { createMailer } from './mail/mailer';
import { openRuntime, type Runtime } from './runtime';
import { type DemoSignIn, seed } from './seed';

/** How long a process may take to finish its requests and its writer's queue after SIGTERM. */
const PROCESS_GRACE_MS = 20_000;
/** The primary waits for its workers' grace, then seals and closes. */
const PRIMARY_GRACE_MS = 25_000;
/** What a cluster worker tells its primary once it can be handed connections. */
const WORKER_READY = 'll:ready';
/** A worker that died sooner than this after it started is replaced after a pause, not at once (no crash loop). */
const WORKER_STABLE_MS = 10_000;
const WORKER_RESTART_PAUSE_MS = 2000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

function warnOnStaleBuild(config: Config): void {
  const file = path.resolve('build/settings.json');
  if (!fs.existsSync(file)) return;
  const built = JSON.parse(fs.readFileSync(file, 'utf8')) as { bankName?: string; demoMode?: boolean };
  if (built.bankName !== config.bankName || built.demoMode !== config.demoMode) {
    console.warn(
      `Warning: the web build was made with BANK_NAME="${built.bankName}" DEMO_MODE=${built.demoMode}; ` +
        `this start has BANK_NAME="${config.bankName}" DEMO_MODE=${config.demoMode}. Run "npm run build" (npm start does) to update the pages.`,
    );
  }
}

function contextFor(config: Config, database: DatabaseHandle, log: Logger): AppContext {
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: (line) => log.info(line) });
  return createAppContext({ config, db: database.db, mailer, log, notices: database.notices });
}

/**
 * What must happen once per instance, whatever the number of processes: PostgreSQL (the embedded
 * one when DATABASE_URL is unset) with its schema migrated (Kysely's migration lock), the seed
 * (an advisory lock), the sealer (one at a time across instances, ADR 008), and the background
 * job runner unless RUN_JOBS=false (any number share the queue, ADR 010).
 */
interface Instance {
  runtime: Runtime;
  context: AppContext;
  log: Logger;
  signIns: DemoSignIn[];
  /** After the HTTP side has stopped: finishes the running jobs, drains the writer, seals what is committed, closes the pool and PostgreSQL. */
  stop(): Promise<void>;
}

async function startInstance(config: Config): Promise<Instance> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  warnOnStaleBuild(config);
  if (config.isProduction && !config.fourEyes) {
    console.warn('FOUR_EYES=off: staff credits, debits, corrections, reversals, unblocks and closures take effect without a second staff member (ADR 023).');
  }
  // Fail fast on a mistyped deposit address, before anything starts (it names the option and the problem).
  loadCryptoDeposits(config);
  // And on an anchor file this instance could not append to (ADR 014): better now than at the first anchor.
  checkAnchorFile(config.anchorFile);
  const log = createLogger(config);
  const runtime = await openRuntime(config, { databaseLog: log, channels: servingChannels(config) });
  trackPool(runtime.database.poolStats);
  const context = contextFor(config, runtime.database, log);
  // This process seals; the money notifier reads after it where background jobs run here.
  readWrittenBy(config.runJobs ? 'sealer and notifier' : 'sealer');
  const signIns = await seed(context);
  // Chains committed entries and audit records into their hash chains within about a second
  // (ADR 008, ADR 014); after a round that chained entries it wakes the job that notifies customers
  // of the money they received or sent (ADR 013), not waiting for it: its failure is logged, never the sealer's.
  const sealLedger = async (db: DB) => {
    const sealed = await sealPending(db);
    if (sealed) {
      wakeLedgerNotifier(context).catch((error: unknown) =>
        log.warn(isDatabaseUnavailable(error) ? { reason: describeDatabaseError(error) } : { err: error }, 'waking the readers of the chain failed'),
      );
    }
    return sealed;
  };
  const sealer = startSealer(context.db, log, SEAL_INTERVAL_MS, [sealLedger, sealAuditPending]);
  const jobs = config.runJobs ? await startJobRunner(context, runtime.database.pool) : null;
  return {
    runtime,
    context,
    log,
    signIns,
    async stop() {
      await jobs?.stop();
      await context.ledger.close();
      await sealer.stop();
      // What is left unsealed is sealed by the next start; only a database that is gone stops this.
      if (runtime.embedded?.isRunning() !== false) {
        await Promise.all([sealAll(context.db), sealAuditAll(context.db)]).catch((error: unknown) =>
          log.warn(`not sealed at shutdown (the next start seals it): ${String(error)}`),
        );
      }
      await runtime.stop();
    },
  };
}

/**
 * SIGTERM or SIGINT: stop accepting, finish in-flight requests and the writer's queue, close, exit
 * 0, with one log line (`quiet`: none, a cluster's primary writes it). A second signal, an error
 * while closing or the grace period running out exits 1 at once.
 */
function closeGracefully(
  log: Logger,
  graceMs: number,
  close: () => Promise<void>,
  options: { quiet?: boolean; onSecondSignal?: (signal: NodeJS.Signals) => void } = {},
) {
  return closeWithGrace(
    {
      delay: graceMs,
      logger: false,
      onSecondSignal: (signal) => {
        options.onSecondSignal?.(signal);
        log.error(`second ${signal}: exiting now`);
      },
      onTimeout: (delayMs) => log.error(`shutdown took longer than ${delayMs / 1000} s: exiting`),
      onSecondError: (error) => log.error(`error while shutting down, exiting: ${String(error)}`),
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'uncaught error: shutting down');
      else if (!options.quiet) log.info(`${signal ?? 'shutdown'}: shutting down (finishing requests in flight)`);
      try {
        await close();
      } catch (error) {
        log.error(`shutdown failed: ${String(error)}`);
        throw error;
      }
    },
  );
}

/** How the first admin's second factor reads in the banner (ADR 011); the demo's secret comes with its QR code. */
async function secondFactorLines(signIn: DemoSignIn): Promise<string[]> {
  const factor = signIn.secondFactor;
  if (!factor || factor.kind === 'enrolled') return [];
  if (factor.kind === 'configured') return ['             second factor: the authenticator app holding ADMIN_TOTP_SECRET'];
  if (factor.kind === 'none') return ['             second factor: none yet; the first sign-in sets one up (a passkey or an authenticator app)'];
  const qr = await QRCode.toString(factor.uri, { type: 'terminal', small: true });
  return [
    `             second factor: authenticator app with the demo secret ${factor.secret}`,
    `             ${factor.uri}`,
    '             scan this QR code with an authenticator app, or run "npm run demo:totp" for the current code:',
    ...qr
      .trimEnd()
      .split('\n')
      .map((line) => `             ${line}`),
  ];
}

async function printBanner(config: Config, instance: Instance, port: number): Promise<void> {
  const { log } = instance;
  // The address customers use; the default (PUBLIC_URL unset) names the port actually listened on (PORT=0 picks one).
  const url = config.publicUrlGiven ? config.publicUrl : config.publicUrl.replace(/:\d+$/, `:${port}`);
  const mail = config.devMailbox
    ? `development outbox, read it at ${url}/dev/mailbox`
    : config.smtpUrl
      ? 'SMTP'
      : 'not sent: set SMTP_URL (without demo mode there is no development mailbox)';
  const signIns: string[] = [];
  for (const signIn of instance.signIns) {
    signIns.push(
      `    ${signIn.role === 'admin' ? 'admin    ' : 'customer '} ${signIn.email}  ${signIn.password ?? '(password as configured or shown at first start)'}` +
        (signIn.role === 'admin' ? `   -> ${url}/admin/login` : `   -> ${url}/signin`),
      ...(signIn.note ? [signIn.note] : await secondFactorLines(signIn)),
    );
  }
  const lines = [
    '',
    `  ${config.bankName} is running at ${url}`,
    `  Database: ${instance.runtime.databaseLabel}`,
    `  Mail: ${mail}`,
    `  Background jobs: ${config.runJobs ? 'run here' : 'not here (RUN_JOBS=false): run "npm run worker"'}`,
    config.webConcurrency > 1 ? `  Processes: ${config.webConcurrency} (WEB_CONCURRENCY)` : '',
    config.demoMode ? '  Demo bank: no real money.' : '',
    '',
    '  Sign-ins:',
    ...signIns,
    '',
  ];
  if (config.isProduction) {
    // Production logs are JSON lines (a pipeline that keeps only those keeps this too, and with it a
    // first start's generated admin password): one line, the banner's lines as a field.
    log.info({ banner: lines.filter((line) => line !== '').map((line) => line.trim()) }, `${config.bankName} is running at ${url}`);
    return;
  }
  console.log(lines.filter((line, index) => line !== '' || index === 0 || lines[index - 1] !== '').join('\n'));
}

/** WEB_CONCURRENCY=1: one process does everything. */
async function runSingle(config: Config): Promise<void> {
  const instance = await startInstance(config);
  const app = await buildApp(instance.context, { serveWeb: true });
  closeGracefully(instance.log, PROCESS_GRACE_MS, async () => {
    await app.close();
    await instance.stop();
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await instance.stop().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  await printBanner(config, instance, typeof address === 'object' && address ? address.port : config.port);
}

/** A cluster worker: serves the HTTP connections its primary hands it, on the primary's database. */
async function runWorker(config: Config): Promise<void> {
  if (!config.databaseUrl) throw new Error('a worker needs the DATABASE_URL its primary gives it');
  const log = createLogger(config);
  const database = createDatabase(config.databaseUrl, { log, channels: servingChannels(config) });
  trackPool(database.poolStats);
  const own = contextFor(config, database, log);
  // Customer payments go to the primary's writer, one for the cluster (ledger/cluster.ts).
  const context: AppContext = { ...own, ledger: new ClusterLedger(own.ledger) };
  // The primary seals what it wrote from memory; what a worker writes itself (staff entries, bulk
  // payments) it reads back.
  readWrittenBy('none');
  const app = await buildApp(context, { serveWeb: true, metrics: clusterWorkerMetrics() });
  await app.ready();
  const connections = new HandedConnections(app.server);
  let closing = false;
  const closer = closeGracefully(
    log,
    PROCESS_GRACE_MS,
    async () => {
      closing = true;
      await app.close();
      await connections.drain();
      await context.ledger.close();
      await database.close();
    },
    { quiet: true },
  );
  const close = () => {
    if (!closing) closer.close();
  };
  process.on('message', (message: unknown) => {
    if (messageType(message) === 'll:shutdown') close();
  });
  // The primary is gone (killed): nothing hands connections here any more.
  process.on('disconnect', close);
  receiveConnections(connections);
  process.send?.({ type: WORKER_READY });
  log.info('worker ready: serving the connections the primary hands it');
}

/**
 * WEB_CONCURRENCY=N: this process prepares the instance and serves HTTP, forks N-1 workers that
 * serve it too (node:cluster), accepts on the port and hands each new connection in turn to itself
 * or a worker (lib/shared-port.ts), prints the banner once all are ready, and replaces a worker that
 * dies. On SIGTERM it stops accepting, finishes its own requests and asks every worker to finish
 * theirs, then seals and stops.
 */
async function runPrimary(config: Config): Promise<void> {
  const instance = await startInstance(config);
  const { log } = instance;
  const app = await buildApp(instance.context, { serveWeb: true, metrics: serveClusterMetrics() });
  await app.ready();
  const connections = new HandedConnections(app.server);
  // One writer for the cluster's customer payments: this process's; the workers hand theirs over (ledger/cluster.ts).
  serveClusterLedger(instance.context.ledger, log);
  const workerEnv = { DATABASE_URL: instance.runtime.databaseUrl };
  const startedAt = new Map<number, number>();
  const ready = new Set<Worker>();
  const fork = () => startedAt.set(cluster.fork(workerEnv).id, Date.now());
  const workers = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  let stopping = false;
  let failedToStart: ((error: Error) => void) | null = null;
  let allReady: (() => void) | null = null;

  cluster.on('message', (worker, message: unknown) => {
    if (messageType(message) !== WORKER_READY) return;
    ready.add(worker);
    if (ready.size === config.webConcurrency - 1) allReady?.();
  });
  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker);
    const livedMs = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    if (failedToStart) return failedToStart(new Error(`a worker exited while starting (${signal ?? `code ${code}`})`));
    log.warn({ workerPid: worker.process.pid, code, signal }, 'worker exited unexpectedly: starting another');
    setTimeout(() => stopping || fork(), livedMs < WORKER_STABLE_MS ? WORKER_RESTART_PAUSE_MS : 0);
  });
  const server = shareConnections(connections, () => [...ready].filter((worker) => worker.isConnected()));

  const stopWorkers = async () => {
    stopping = true;
    let unclean = 0;
    await Promise.all(
      workers().map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once('exit', (code) => {
              if (code !== 0) unclean += 1;
              resolve();
            });
            if (worker.isConnected()) worker.send({ type: 'll:shutdown' });
            else worker.process.kill('SIGTERM');
          }),
      ),
    );
    if (unclean > 0) throw new Error(`${unclean} worker(s) did not shut down cleanly`);
  };
  const stopServing = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    await connections.drain();
  };
  closeGracefully(
    log,
    PRIMARY_GRACE_MS,
    async () => {
      // Nothing new is accepted; this process's requests and the workers' finish (their payments
      // still go to this process's writer), then the writer drains and the chain is sealed.
      await Promise.all([stopServing(), stopWorkers()]);
      await instance.stop();
    },
    // A second signal reaches the workers too: they stop at once.
    { onSecondSignal: (signal) => workers().forEach((worker) => worker.process.kill(signal)) },
  );

  let port = config.port;
  try {
    await new Promise<void>((resolve, reject) => {
      failedToStart = reject;
      allReady = resolve;
      for (let index = 1; index < config.webConcurrency; index += 1) fork();
    });
    failedToStart = null;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const address = server.address();
    if (typeof address === 'object' && address) port = address.port;
    log.info(`Server listening at http://${config.host}:${port} (this process and ${config.webConcurrency - 1} worker(s) serve it)`);
  } catch (error) {
    await stopWorkers().catch(() => undefined);
    await instance.stop().catch(() => undefined);
    throw error;
  }
  await printBanner(config, instance, port);
}

async function main(): Promise<void> {
  const config = readConfig();
  if (cluster.isWorker) return runWorker(config);
  if (config.webConcurrency > 1) return runPrimary(config);
  return runSingle(config);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Ledgerline failed to start: ${error.message}` : error);
  process.exit(1);
});
