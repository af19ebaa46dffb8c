import { z } from 'zod';
import { envelope } from './common';

/** A crypto deposit option as GET /api/deposit/crypto returns it (spec section 3). */
export const ZCryptoDepositOption = z.object({
  name: z.string(),
  symbol: z.string(),
  /** The network as customers read it, e.g. "Tron (TRC20)". */
  network: z.string().describe('The network as customers read it, e.g. Tron (TRC20).'),
  address: z.string().describe('The deposit address on that network.'),
  iconUrl: z.string().nullable(),
});
export type CryptoDepositOption = z.infer<typeof ZCryptoDepositOption>;

export const ZCryptoDepositsResponse = envelope(z.array(ZCryptoDepositOption)).extend({
  /** True while the options are the built-in demo addresses, not the operator's. */
  demo: z.boolean().describe("True while the options are the built-in demo addresses, not the operator's."),
});
export type CryptoDepositsResponse = z.infer<typeof ZCryptoDepositsResponse>;

export const DEPOSIT_METHODS = [
  { id: 'paypal', label: 'PayPal' },
  { id: 'cashapp', label: 'CashApp' },
  { id: 'bank_transfer', label: 'Bank Transfer' },
] as const;

export const depositUnavailableMessage = (method: string) => `${method} deposit is not available at the moment.`;
