import fs from 'node:fs';
import { writeAnchor } from '../anchors/service';
import { loadConfig } from '../config';
import { systemClock } from '../context';
import { createDatabase, type DatabaseHandle } from '../db/database';
import { runningEmbeddedUrl } from '../db/embedded';
import { openRuntime } from '../runtime';
import { loadBankSigner } from '../signing/keys';

// `npm run ledger:anchor`: writes one anchor now (ADR 014), as the back office's "Anchor now" does,
// for an operator's own schedule (before a backup, after a migration). Reads DATABASE_URL (or the
// embedded PostgreSQL of DATA_DIR), BANK_SIGNING_KEY_FILE, ANCHOR_FILE and ANCHOR_EMAIL. Prints the line.
async function main(): Promise<number> {
  const config = loadConfig();
  const signer = loadBankSigner(config);
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
    const anchor = await writeAnchor({ db: handle.db, config, signer, clock: systemClock });
    if (!anchor) throw new Error('no anchor was written');
    console.log(anchor.line);
    return 0;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`ledger:anchor could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
