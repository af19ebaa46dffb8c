import { loadConfig } from '../config';
import { verifyBooks } from '../anchors/verify';
import { openCommandDatabase, runCommand } from './database';

// `npm run ledger:verify`: reads DATABASE_URL, or opens the embedded PostgreSQL in DATA_DIR as the server does,
// and ANCHOR_FILE. Exit 0 with one OK line, 1 with a FAILED line per part that does not match, 2 when it cannot run.
async function main(): Promise<number> {
  const config = loadConfig();
  const { database, stop } = await openCommandDatabase(config, { poolMax: 2 });
  try {
    // The ledger chain and every balance, the audit chain, and every line of ANCHOR_FILE (ADR 014).
    const result = await verifyBooks(database.db, config);
    for (const line of result.lines) {
      if (result.ok) console.log(line);
      else console.error(line);
    }
    return result.ok ? 0 : 1;
  } finally {
    await stop();
  }
}

runCommand('ledger:verify', main);
