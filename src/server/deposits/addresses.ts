import { bech32, bech32m } from 'bech32';
import bs58check from 'bs58check';
import { keccak_256 } from '@noble/hashes/sha3';

// Address checks per network, so a typo in the operator's configuration can never send a
// customer's deposit into the void. Each check is the network's own checksum rule.

export type Chain = 'bitcoin' | 'ethereum' | 'tron';
export const CHAINS: readonly Chain[] = ['bitcoin', 'ethereum', 'tron'];

/** Returns null when the address is valid on the chain, else why not. */
export function addressProblem(chain: Chain, address: string): string | null {
  switch (chain) {
    case 'bitcoin':
      return bitcoinProblem(address);
    case 'ethereum':
      return ethereumProblem(address);
    case 'tron':
      return tronProblem(address);
  }
}

function base58checkPayload(address: string): Uint8Array | null {
  try {
    return bs58check.decode(address);
  } catch {
    return null;
  }
}

/** Mainnet only: P2PKH (1...) and P2SH (3...) in base58check, SegWit (bc1...) in bech32/bech32m. */
function bitcoinProblem(address: string): string | null {
  if (/^(bc1|BC1)/.test(address)) {
    if (address !== address.toLowerCase() && address !== address.toUpperCase()) return 'a bech32 address must not mix upper and lower case';
    const lower = address.toLowerCase();
    let decoded: { prefix: string; words: number[] };
    let variant: 'bech32' | 'bech32m';
    try {
      decoded = bech32.decode(lower, 90);
      variant = 'bech32';
    } catch {
      try {
        decoded = bech32m.decode(lower, 90);
        variant = 'bech32m';
      } catch {
        return 'its bech32 checksum is wrong';
      }
    }
    if (decoded.prefix !== 'bc') return 'it is not a Bitcoin mainnet address';
    const [version, ...data] = decoded.words;
    if (version === undefined || version > 16) return 'its witness version is invalid';
    let program: number[];
    try {
      program = bech32.fromWords(data);
    } catch {
      return 'its witness program is malformed';
    }
    if (version === 0) {
      if (variant !== 'bech32') return 'a version 0 witness address must use bech32, not bech32m';
      if (program.length !== 20 && program.length !== 32) return 'a version 0 witness program is 20 or 32 bytes';
    } else {
      if (variant !== 'bech32m') return 'a version 1+ witness address must use bech32m';
      if (program.length < 2 || program.length > 40) return 'its witness program length is invalid';
      if (version === 1 && program.length !== 32) return 'a Taproot witness program is 32 bytes';
    }
    return null;
  }
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(address)) return 'it is neither a base58 (1..., 3...) nor a bech32 (bc1...) Bitcoin address';
  const payload = base58checkPayload(address);
  if (!payload) return 'its base58check checksum is wrong';
  if (payload.length !== 21 || (payload[0] !== 0x00 && payload[0] !== 0x05)) return 'it is not a Bitcoin mainnet P2PKH or P2SH address';
  return null;
}

/** EIP-55: the mixed-case checksum is required, so a mistyped character is always caught. */
export function toChecksumAddress(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let result = '0x';
  for (let index = 0; index < hex.length; index += 1) {
    const char = hex[index] ?? '';
    result += parseInt(hash[index] ?? '0', 16) >= 8 ? char.toUpperCase() : char;
  }
  return result;
}

function ethereumProblem(address: string): string | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return 'an Ethereum address is 0x followed by 40 hexadecimal characters';
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return 'write it with its EIP-55 checksum (mixed case), so typos are caught';
  if (toChecksumAddress(address) !== address) return 'its EIP-55 checksum is wrong';
  return null;
}

/** Tron: base58check over 21 bytes starting with 0x41 (addresses start with T). */
function tronProblem(address: string): string | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return 'a Tron address is T followed by 33 base58 characters';
  const payload = base58checkPayload(address);
  if (!payload) return 'its base58check checksum is wrong';
  if (payload.length !== 21 || payload[0] !== 0x41) return 'it does not carry the Tron 0x41 prefix';
  return null;
}
