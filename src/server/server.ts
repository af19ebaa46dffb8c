import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createAppContext } from './context';
import { loadCryptoDeposits } from './deposits/service';
import { startSealer, sealAll } from './ledger/sealer';
import { createLogger } from './lib/logger';
import { createMailer } from './mail/mailer';
import { openRuntime } from './runtime';
import { seed } from './seed';

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

async function main(): Promise<void> {
  const config = readConfig();
  fs.mkdirSync(config.dataDir, { recursive: true });
  warnOnStaleBuild(config);
  // Fail fast on a mistyped deposit address, before anything starts (it names the option and the problem).
  loadCryptoDeposits(config);
  const runtime = await openRuntime(config);
  const log = createLogger(config);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: (line) => log.info(line) });
  const context = createAppContext({ config, db: runtime.database.db, mailer, log });
  const signIns = await seed(context);
  const app = await buildApp(context, { serveWeb: true });
  // Chains committed entries into the hash chain within about a second (ADR 008).
  const sealer = startSealer(context.db, log);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    try {
      await app.close();
      await sealer.stop();
      await sealAll(context.db);
      await runtime.stop();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl.replace(/:\d+$/, '') === config.publicUrl ? config.publicUrl : config.publicUrl.replace(/:\d+$/, `:${port}`);
  const lines = [
    '',
    `  ${config.bankName} is running at ${url}`,
    `  Database: ${runtime.databaseLabel}`,
    `  Mail: ${config.smtpUrl ? 'SMTP' : `development outbox, read it at ${url}/dev/mailbox`}`,
    config.demoMode ? '  Demo bank: no real money.' : '',
    '',
    '  Sign-ins:',
    ...signIns.map(
      (signIn) =>
        `    ${signIn.role === 'admin' ? 'admin    ' : 'customer '} ${signIn.email}  ${signIn.password ?? '(password as configured or shown at first start)'}` +
        (signIn.role === 'admin' ? `   -> ${url}/admin/login` : `   -> ${url}/signin`),
    ),
    '',
  ];
  console.log(lines.filter((line, index) => line !== '' || index === 0 || lines[index - 1] !== '').join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Ledgerline failed to start: ${error.message}` : error);
  process.exit(1);
});
