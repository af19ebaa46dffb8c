import { writeAnchor } from '../anchors/service';
import { loadConfig } from '../config';
import { systemClock } from '../context';
import { loadBankSigner } from '../signing/keys';
import { openCommandDatabase, runCommand } from './database';

// `npm run ledger:anchor`: writes one anchor now (ADR 014), as the back office's "Anchor now" does,
// for an operator's own schedule (before a backup, after a migration). Reads DATABASE_URL (or the
// embedded PostgreSQL of DATA_DIR), BANK_SIGNING_KEY_FILE, ANCHOR_FILE and ANCHOR_EMAIL. Prints the line.
async function main(): Promise<number> {
  const config = loadConfig();
  const signer = loadBankSigner(config);
  const { database, stop } = await openCommandDatabase(config, { poolMax: 2 });
  try {
    const anchor = await writeAnchor({ db: database.db, config, signer, clock: systemClock });
    if (!anchor) throw new Error('no anchor was written');
    console.log(anchor.line);
    return 0;
  } finally {
    await stop();
  }
}

runCommand('ledger:anchor', main);
