import fs from 'node:fs';
import { loadConfig } from '../config';
import { createDatabase, type DatabaseHandle } from '../db/database';
import { runningEmbeddedUrl } from '../db/embedded';
import { openRuntime } from '../runtime';
import { describeVerifyResult, verifyLedger } from '../ledger/verify';

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
