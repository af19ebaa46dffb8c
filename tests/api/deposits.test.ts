import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressProblem, toChecksumAddress } from '../../src/server/deposits/addresses';
import { CryptoDepositsConfigError, DEMO_CRYPTO_OPTIONS, loadCryptoDeposits } from '../../src/server/deposits/service';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext } from '../support/app';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-crypto-'));
const writeOptions = (name: string, options: unknown) => {
  const file = path.join(directory, name);
  fs.writeFileSync(file, typeof options === 'string' ? options : JSON.stringify(options));
  return file;
};
const good = {
  name: 'Bitcoin',
  symbol: 'BTC',
  network: 'Bitcoin Network',
  chain: 'bitcoin',
  address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  iconUrl: '/crypto/btc.svg',
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

describe('address checks per network', () => {
  it('accepts valid Bitcoin (base58 and bech32/bech32m), Ethereum (EIP-55) and Tron addresses', () => {
    for (const address of [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
    ]) {
      expect(addressProblem('bitcoin', address), address).toBeNull();
    }
    expect(addressProblem('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(addressProblem('ethereum', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359')).toBeNull();
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    expect(addressProblem('tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBeNull();
    for (const option of DEMO_CRYPTO_OPTIONS) expect(addressProblem(option.chain, option.address)).toBeNull();
  });

  it('refuses one wrong character, the wrong network and malformed text', () => {
    expect(addressProblem('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toMatch(/checksum/);
    expect(addressProblem('bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toMatch(/checksum/);
    expect(addressProblem('bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toMatch(/bc1/); // testnet
    expect(addressProblem('bitcoin', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn')).not.toBeNull(); // testnet base58
    expect(addressProblem('bitcoin', 'hello')).not.toBeNull();
    expect(addressProblem('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(/EIP-55 checksum is wrong/);
    expect(addressProblem('ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toMatch(/EIP-55/);
    expect(addressProblem('ethereum', '0x123')).toMatch(/40 hexadecimal/);
    expect(addressProblem('tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwc')).toMatch(/checksum/);
    // A valid Bitcoin address is not a Tron address.
    expect(addressProblem('tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).not.toBeNull();
  });
});

describe('operator configuration', () => {
  it('uses the demo options without a file, and the file when given', () => {
    expect(loadCryptoDeposits({ cryptoDepositsFile: undefined })).toMatchObject({ demo: true, options: { length: 4 } });
    const file = writeOptions('good.json', [good]);
    const loaded = loadCryptoDeposits({ cryptoDepositsFile: file });
    expect(loaded.demo).toBe(false);
    expect(loaded.options).toEqual([good]);
  });

  it('stops on a malformed address, naming the option and the problem', () => {
    const file = writeOptions('bad.json', [
      good,
      { ...good, name: 'Ether', chain: 'ethereum', network: 'Ethereum (ERC20)', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' },
    ]);
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: file })).toThrow(CryptoDepositsConfigError);
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: file })).toThrow(
      /option 2 \(Ether, Ethereum \(ERC20\)\).*invalid ethereum address.*EIP-55 checksum is wrong/,
    );
  });

  it('stops on unreadable, non-JSON or incomplete files', () => {
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: path.join(directory, 'missing.json') })).toThrow(/cannot be read/);
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: writeOptions('text.json', 'not json') })).toThrow(/not valid JSON/);
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: writeOptions('chain.json', [{ ...good, chain: 'dogecoin' }]) })).toThrow(/chain must be one of/);
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: writeOptions('empty.json', []) })).toThrow(/at least one option/);
    expect(() => loadCryptoDeposits({ cryptoDepositsFile: writeOptions('icon.json', [{ ...good, iconUrl: 'https://evil.example/x.svg' }]) })).toThrow(
      /iconUrl/,
    );
  });

  it('refuses to build the app with a bad address', async () => {
    const file = writeOptions('bad-app.json', [{ ...good, address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb' }]);
    await expect(createTestApp({ env: { CRYPTO_DEPOSITS_FILE: file } })).rejects.toThrow(/invalid bitcoin address/);
  });

  it('stops the server start with a clear message', () => {
    const file = writeOptions('bad-start.json', [{ ...good, address: 'bc1-not-an-address' }]);
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
      env: { ...process.env, CRYPTO_DEPOSITS_FILE: file, PORT: '3102', DATA_DIR: path.join(directory, 'data'), NODE_ENV: 'test', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Ledgerline failed to start: Crypto deposit option 1 (Bitcoin, Bitcoin Network)');
    expect(result.stderr).toContain('invalid bitcoin address');
  });
});

describe('GET /api/deposit/crypto', () => {
  it('lists the options for a signed-in customer, without internal fields', async () => {
    const customer = await createCustomer(ctx);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/deposit/crypto', headers: bearer(customer.token) });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.demo).toBe(true);
    expect(body.data.map((option: { symbol: string }) => option.symbol)).toEqual(['BTC', 'ETH', 'USDT TRC20', 'USDT ERC20']);
    expect(body.data[2]).toEqual({
      name: 'USDT',
      symbol: 'USDT TRC20',
      network: 'Tron (TRC20)',
      address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
      iconUrl: '/crypto/usdt.svg',
    });
    expect(body.data[1].address).toBe(body.data[3].address);
  });

  it('needs a signed-in customer', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/deposit/crypto' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/deposit/crypto', headers: bearer(await adminToken(ctx)) })).statusCode).toBe(403);
  });
});
