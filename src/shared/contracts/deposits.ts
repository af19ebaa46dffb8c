/** A crypto deposit option as GET /api/deposit/crypto returns it (spec section 3). */
export interface CryptoDepositOption {
  name: string;
  symbol: string;
  /** The network as customers read it, e.g. "Tron (TRC20)". */
  network: string;
  address: string;
  iconUrl: string | null;
}

export interface CryptoDepositsResponse {
  data: CryptoDepositOption[];
  /** True while the options are the built-in demo addresses, not the operator's. */
  demo: boolean;
}

export const DEPOSIT_METHODS = [
  { id: 'paypal', label: 'PayPal' },
  { id: 'cashapp', label: 'CashApp' },
  { id: 'bank_transfer', label: 'Bank Transfer' },
] as const;

export const depositUnavailableMessage = (method: string) => `${method} deposit is not available at the moment.`;
export const COPIED_MS = 2000;
