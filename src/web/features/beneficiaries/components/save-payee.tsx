import { useState } from 'react';
import type { BeneficiaryRequest } from '../../../../shared/contracts/beneficiaries';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useAction } from '../../../lib/action';
import { ApiError } from '../../../lib/api';
import { saveBeneficiary } from '../api';

/**
 * 'Save {name} as payee', offered after a completed transfer. Where the bank runs without the
 * beneficiaries module (the call answers 404) the offer just goes away.
 */
export function SavePayee({ payee }: { payee: BeneficiaryRequest & { name: string } }) {
  const [unavailable, setUnavailable] = useState(false);
  const save = useAction(() => saveBeneficiary(payee), {
    refresh: false,
    onError: (error) => setUnavailable(error instanceof ApiError && error.status === 404),
  });
  if (unavailable) return null;
  const message = save.done ? (save.result ?? 'Payee saved') : save.error?.message;
  if (message) return <Alert tone="info">{message}</Alert>;
  return (
    <Button variant="secondary" onClick={() => void save.run()} disabled={save.busy}>
      {save.busy ? 'Saving...' : `Save ${payee.name} as payee`}
    </Button>
  );
}
