import { useState } from 'react';
import { toast } from 'sonner';
import type { TransactionDto, TransferCodeSent } from '../../../shared/contracts/transactions';
import { errorMessage } from '../../lib/api';
import { useIdempotencyKey } from '../../lib/idempotency';
import type { StepAnswer } from './api';

/**
 * The steps shared by every outgoing transfer: the first call emails an IMS code and shows the
 * summary; the call with the code posts it. Each submit gets its own Idempotency-Key (reused only
 * when that same submit is retried), and a failure shows the server's message on the same step.
 */
export function useCodedTransfer<Request>(send: (request: Request, idempotencyKey: string) => Promise<StepAnswer>, onDone: (line: TransactionDto) => void) {
  const [step, setStep] = useState<'form' | 'code'>('form');
  const [code, setCode] = useState<TransferCodeSent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idempotency = useIdempotencyKey();

  async function submit(request: Request, options: { resent?: boolean } = {}) {
    setBusy(true);
    setError(null);
    try {
      const answer = await send(request, idempotency.keyFor(request));
      idempotency.settle();
      if (answer.kind === 'code') {
        setCode(answer.code);
        setStep('code');
        if (options.resent) toast.success('We emailed you a new IMS code');
      } else {
        toast.success('Transfer Successful');
        onDone(answer.line);
      }
    } catch (failure) {
      idempotency.settle(failure);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return { step, setStep, code, error, setError, busy, submit };
}
