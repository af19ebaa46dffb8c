import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIGNING_KEY_FILE, loadBankSigner, newSigningKeyPem, SigningKeyError, verifySignature } from '../../src/server/signing/keys';

const directories: string[] = [];
const tempDir = () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-keys-'));
  directories.push(directory);
  return directory;
};
afterAll(() => directories.forEach((directory) => fs.rmSync(directory, { recursive: true, force: true })));

describe("the bank's signing key", () => {
  it('is made once in DATA_DIR when no file is configured, private to its owner, and kept across starts', () => {
    const dataDir = tempDir();
    const first = loadBankSigner({ dataDir, signingKeyFile: undefined });
    const file = path.join(dataDir, DEFAULT_SIGNING_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadBankSigner({ dataDir, signingKeyFile: undefined });
    expect(again.keyId).toBe(first.keyId);
    expect(first.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(first.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('signs so that the published public key verifies it, and nothing else', () => {
    const signer = loadBankSigner({ dataDir: tempDir(), signingKeyFile: undefined });
    const signature = signer.sign('statement 2026-10 savings sha256:abc');
    expect(verifySignature(signer.publicKeyPem, 'statement 2026-10 savings sha256:abc', signature)).toBe(true);
    expect(verifySignature(signer.publicKeyPem, 'statement 2026-10 savings sha256:abd', signature)).toBe(false);
    const other = loadBankSigner({ dataDir: tempDir(), signingKeyFile: undefined });
    expect(verifySignature(other.publicKeyPem, 'statement 2026-10 savings sha256:abc', signature)).toBe(false);
    expect(verifySignature(signer.publicKeyPem, 'x', 'not base64 at all')).toBe(false);
  });

  it('reads BANK_SIGNING_KEY_FILE, and names it when the file is missing or not an Ed25519 key', () => {
    const directory = tempDir();
    const file = path.join(directory, 'key.pem');
    fs.writeFileSync(file, newSigningKeyPem());
    const signer = loadBankSigner({ dataDir: directory, signingKeyFile: file });
    expect(loadBankSigner({ dataDir: tempDir(), signingKeyFile: file }).keyId).toBe(signer.keyId);
    expect(fs.existsSync(path.join(directory, DEFAULT_SIGNING_KEY_FILE))).toBe(false);

    expect(() => loadBankSigner({ dataDir: directory, signingKeyFile: path.join(directory, 'missing.pem') })).toThrow(
      /BANK_SIGNING_KEY_FILE: cannot read .*missing\.pem \(ENOENT\)/,
    );
    const garbage = path.join(directory, 'garbage.pem');
    fs.writeFileSync(garbage, 'not a key');
    expect(() => loadBankSigner({ dataDir: directory, signingKeyFile: garbage })).toThrow(SigningKeyError);
    expect(() => loadBankSigner({ dataDir: directory, signingKeyFile: garbage })).toThrow(/BANK_SIGNING_KEY_FILE: .* is not an Ed25519 private key/);
  });
});
