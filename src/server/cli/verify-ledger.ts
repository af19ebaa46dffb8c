import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { createDatabase, type DatabaseHandle } from '../db/database';
import { isAlive } from '../db/embedded';
import { openRuntime } from '../runtime';
import { describeVerifyResult, verifyLedger } from '../ledger/verify';

/**
 * When the embedded PostgreSQL in DATA_DIR is already running (the server is up), connect to it
 * rather than start (or stop) it: verifying must never disturb a running bank.
 */
function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !isAlive(pid) || !Number.isInteger(port)) return null;
  return `postgres://postgres:ledgerline-local@127.0.0.1:${port}/ledgerline`;
}

// `npm run ledger:verify`: reads DATABASE_URL, or opens the embedded PostgreSQL in DATA_DIR as the server does.
async function main(): Promise<number> {
  const config = loadConfig();
  const url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  let handle: DatabaseHandle;
  let stop: () => Promise<void>;
  if (url) {
    handle = createDatabase(url, { max: 2 });
    stop = () => handle.close();
  } else {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const runtime = await openRuntime(config);
    handle = runtime.database;
    stop = () => runtime.stop();
  }
  try {
    const result = await verifyLedger(handle.db);
    const line = describeVerifyResult(result);
    if (result.ok) console.log(line);
    else console.error(line);
    return result.ok ? 0 : 1;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`ledger:verify could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
