import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { savePayee } from '../api';

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

/** Shown on /account/transactions right after a transfer: the confirmation and a "Save as payee" offer. */
export function TransferResult() {
  const location = useLocation();
  const result = (location.state as Partial<TransferResultState> | null)?.transferResult;
  const [payee, setPayee] = useState<{ hidden: boolean; message: string | null; saving: boolean }>({ hidden: false, message: null, saving: false });
  useEffect(() => setPayee({ hidden: false, message: null, saving: false }), [location.key]);
  if (!result) return null;

  async function save() {
    if (!result?.payee) return;
    setPayee((current) => ({ ...current, saving: true }));
    const answer = await savePayee(result.payee);
    setPayee({ hidden: answer.notAvailable, message: answer.notAvailable ? null : answer.message, saving: false });
  }

  return (
    <div className="space-y-3">
      <Alert tone="success">
        <p className="font-semibold">Transfer Successful</p>
        <p>{result.summary}</p>
      </Alert>
      {payee.message ? <Alert tone="info">{payee.message}</Alert> : null}
      {result.payee && !payee.hidden && !payee.message ? (
        <Button variant="secondary" onClick={save} disabled={payee.saving}>
          {payee.saving ? 'Saving...' : `Save ${result.payee.name} as payee`}
        </Button>
      ) : null}
    </div>
  );
}
