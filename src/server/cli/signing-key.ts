import fs from 'node:fs';
import path from 'node:path';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { keyIdOf, newSigningKeyPem } from '../signing/keys';

/**
 * `npm run signing-key -- FILE`: writes a new Ed25519 signing key for BANK_SIGNING_KEY_FILE (mode
 * 0600; an existing file is never overwritten) and prints its key id. Rotating: point
 * BANK_SIGNING_KEY_FILE at the new file and restart; what the old key signed stays verifiable.
 */
function main(): void {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: npm run signing-key -- /path/to/signing-key.pem');
    process.exit(2);
  }
  const pem = newSigningKeyPem();
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  try {
    fs.writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    console.error(`Not written: ${(error as NodeJS.ErrnoException).code === 'EEXIST' ? `${file} already exists` : String(error)}`);
    process.exit(1);
  }
  console.log(`Wrote a new Ed25519 signing key to ${file} (key id ${keyIdOf(createPublicKey(createPrivateKey(pem)))}).`);
  console.log(`Set BANK_SIGNING_KEY_FILE=${path.resolve(file)} and keep a copy of the file with your backups.`);
}

main();
