import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/** The file a start without BANK_SIGNING_KEY_FILE uses (made at first start; never in production). */
export const DEFAULT_SIGNING_KEY_FILE = 'signing-key.pem';

/**
 * The bank's Ed25519 signing key: statements and ledger anchors are signed with it, so anyone
 * holding the published public key can check them offline. Only the private key is in the file;
 * the key id is derived from the public key, so it cannot disagree with the key it names.
 */
export interface BankSigner {
  /** 16 hex characters: the start of the SHA-256 of the raw 32-byte public key. */
  keyId: string;
  /** The public key as SPKI PEM, as published. */
  publicKeyPem: string;
  /** Base64 Ed25519 signature of the message. */
  sign(message: string | Buffer): string;
}

export class SigningKeyError extends Error {}

/** The key id of a public key: the start of the SHA-256 of its raw bytes (the last 32 of its DER SPKI form). */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256')
    .update(der.subarray(der.length - 32))
    .digest('hex')
    .slice(0, 16);
}

function signerOf(privateKey: KeyObject): BankSigner {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`the key is ${privateKey.asymmetricKeyType ?? 'not a private key'}, not Ed25519`);
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: keyIdOf(publicKey),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sign: (message) => sign(null, typeof message === 'string' ? Buffer.from(message, 'utf8') : message, privateKey).toString('base64'),
  };
}

function readSigner(file: string, variable: string): BankSigner {
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new SigningKeyError(`${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return signerOf(createPrivateKey(pem));
  } catch (error) {
    throw new SigningKeyError(`${variable}: ${file} is not an Ed25519 private key in PEM (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * The signer of this process: BANK_SIGNING_KEY_FILE when set (a missing or malformed file stops
 * the start, naming the variable), else `DATA_DIR/signing-key.pem`, made at first start (the
 * production check in config.ts refuses a start without BANK_SIGNING_KEY_FILE). Several processes
 * starting on one DATA_DIR agree on one key: the file is created exclusively, and a loser reads the
 * winner's.
 */
export function loadBankSigner(config: Pick<Config, 'signingKeyFile' | 'dataDir'>): BankSigner {
  if (config.signingKeyFile) return readSigner(config.signingKeyFile, 'BANK_SIGNING_KEY_FILE');
  const file = path.join(config.dataDir, DEFAULT_SIGNING_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readSigner(file, `the signing key in DATA_DIR`);
}

/** A new key as PKCS8 PEM: what an operator writes to BANK_SIGNING_KEY_FILE (`npm run signing-key`). */
export function newSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** Checks a base64 Ed25519 signature of `message` against a published SPKI PEM public key. */
export function verifySignature(publicKeyPem: string, message: string | Buffer, signatureBase64: string): boolean {
  try {
    const signature = Buffer.from(signatureBase64, 'base64');
    if (signature.length !== 64) return false;
    return verify(null, typeof message === 'string' ? Buffer.from(message, 'utf8') : message, createPublicKey(publicKeyPem), signature);
  } catch {
    return false;
  }
}
