import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '../../../components/ui/alert';

export interface PayeeDetails {
  name: string;
  accountNumber: string;
  routingNumber: string;
  bankName: string;
}

/** What a completed transfer hands to the transactions page (spec: 'Transfer Successful', then /account/transactions). */
export interface TransferResultState {
  transferResult: { summary: string; payee: PayeeDetails | null };
}

export function transferResultState(summary: string, payee: PayeeDetails | null): TransferResultState {
  return { transferResult: { summary, payee } };
}

/**
 * Shown on /account/transactions right after a transfer: the confirmation, and whatever the page
 * offers for the payee (saving it is the beneficiaries feature's).
 */
export function TransferResult({ children }: { children?: (payee: PayeeDetails) => ReactNode }) {
  const location = useLocation();
  const result = (location.state as Partial<TransferResultState> | null)?.transferResult;
  if (!result) return null;
  return (
    <div key={location.key} className="space-y-3">
      <Alert tone="success">
        <p className="font-semibold">Transfer Successful</p>
        <p>{result.summary}</p>
      </Alert>
      {result.payee && children ? children(result.payee) : null}
    </div>
  );
}
