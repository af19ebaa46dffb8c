import fs from 'node:fs';
import { loadConfig } from '../config';
import { createDatabase, type DatabaseHandle } from '../db/database';
import { runningEmbeddedUrl } from '../db/embedded';
import { openRuntime } from '../runtime';
import { verifyBooks } from '../anchors/verify';

// `npm run ledger:verify`: reads DATABASE_URL, or opens the embedded PostgreSQL in DATA_DIR as the server does,
// and ANCHOR_FILE. Exit 0 with one OK line, 1 with a FAILED line per part that does not match, 2 when it cannot run.
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
    // The ledger chain and every balance, the audit chain, and every line of ANCHOR_FILE (ADR 014).
    const result = await verifyBooks(handle.db, config);
    for (const line of result.lines) {
      if (result.ok) console.log(line);
      else console.error(line);
    }
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
