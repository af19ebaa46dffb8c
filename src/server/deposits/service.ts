import fs from 'node:fs';
import { z } from 'zod';
import type { CryptoDepositOption, CryptoDepositsResponse } from '../../shared/contracts/deposits';
import type { Config } from '../config';
import { addressProblem, CHAINS, type Chain } from './addresses';

// Crypto deposit addresses are operator configuration (DESIGN.md rule 7): a JSON file named by
// CRYPTO_DEPOSITS_FILE, or the demo options below. Every address is checked for its network when
// the server starts; one bad address stops the start, naming the option and the problem.

export interface ConfiguredOption extends CryptoDepositOption {
  chain: Chain;
}

/**
 * The spec's four options with public example addresses from the networks' own documents (the
 * BIP-173 test vector, the EIP-55 test vector and Tron's burn address): valid, owned by no one
 * who will refund a deposit. A real deployment must configure its own.
 */
export const DEMO_CRYPTO_OPTIONS: ConfiguredOption[] = [
  {
    name: 'Bitcoin',
    symbol: 'BTC',
    network: 'Bitcoin Network',
    chain: 'bitcoin',
    address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    iconUrl: '/crypto/btc.svg',
  },
  {
    name: 'Ethereum',
    symbol: 'ETH',
    network: 'Ethereum (ERC20)',
    chain: 'ethereum',
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    iconUrl: '/crypto/eth.svg',
  },
  { name: 'USDT', symbol: 'USDT TRC20', network: 'Tron (TRC20)', chain: 'tron', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', iconUrl: '/crypto/usdt.svg' },
  {
    name: 'USDT ERC20',
    symbol: 'USDT ERC20',
    network: 'Ethereum (ERC20)',
    chain: 'ethereum',
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    iconUrl: '/crypto/usdt.svg',
  },
];

export const CRYPTO_OPTIONS_MAX = 20;

const ZOption = z.object({
  name: z.string().trim().min(1, 'name is required').max(40, 'name must be at most 40 characters'),
  symbol: z.string().trim().min(1, 'symbol is required').max(20, 'symbol must be at most 20 characters'),
  network: z.string().trim().min(1, 'network is required').max(40, 'network must be at most 40 characters'),
  chain: z.enum(CHAINS as [Chain, ...Chain[]], { message: `chain must be one of ${CHAINS.join(', ')}` }),
  address: z.string().trim().min(1, 'address is required').max(100, 'address is too long'),
  iconUrl: z
    .string()
    .trim()
    .max(300)
    .refine((value) => value.startsWith('/') && !value.startsWith('//'), 'iconUrl must be a path on this site, like /crypto/btc.svg')
    .nullable()
    .default(null),
});
const ZOptions = z.array(ZOption).min(1, 'at least one option is required').max(CRYPTO_OPTIONS_MAX, `at most ${CRYPTO_OPTIONS_MAX} options`);

export class CryptoDepositsConfigError extends Error {}

/** Checks options (from a file or the demo list): each address must be valid for its chain. */
export function validateCryptoOptions(input: unknown, source: string): ConfiguredOption[] {
  const parsed = ZOptions.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CryptoDepositsConfigError(
      `Crypto deposit options in ${source}: ${issue?.path.length ? `[${issue.path.join('.')}] ` : ''}${issue?.message ?? 'invalid'}`,
    );
  }
  for (const [index, option] of parsed.data.entries()) {
    const problem = addressProblem(option.chain, option.address);
    if (problem) {
      throw new CryptoDepositsConfigError(
        `Crypto deposit option ${index + 1} (${option.name}, ${option.network}) in ${source} has an invalid ${option.chain} address "${option.address}": ${problem}.`,
      );
    }
  }
  return parsed.data;
}

export interface CryptoDepositSettings {
  options: ConfiguredOption[];
  demo: boolean;
}

/** Reads and validates the configured options; throws CryptoDepositsConfigError with a clear message. */
export function loadCryptoDeposits(config: Pick<Config, 'cryptoDepositsFile'>): CryptoDepositSettings {
  if (!config.cryptoDepositsFile) return { options: validateCryptoOptions(DEMO_CRYPTO_OPTIONS, 'the demo configuration'), demo: true };
  const file = config.cryptoDepositsFile;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CryptoDepositsConfigError(`CRYPTO_DEPOSITS_FILE ${file} cannot be read: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CryptoDepositsConfigError(`CRYPTO_DEPOSITS_FILE ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return { options: validateCryptoOptions(data, file), demo: false };
}

export const publicOption = ({ chain: _chain, ...option }: ConfiguredOption): CryptoDepositOption => option;

/** The answer of GET /api/deposit/crypto: the options without their internal fields, and whether they are the demo's. */
export function cryptoDepositsAnswer(settings: CryptoDepositSettings): CryptoDepositsResponse {
  return { data: settings.options.map(publicOption), demo: settings.demo };
}
