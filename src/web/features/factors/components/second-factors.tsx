import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../../components/ui/alert';
import { errorMessage } from '../../../lib/api';
import { factorSummaryQuery } from '../api/factor-summary';
import { factorKeys } from '../api/keys';
import { AuthenticatorApp } from './authenticator-app';
import { Passkeys } from './passkeys';

/**
 * How the user signs in: passkeys and the authenticator app, on the customer's security page and
 * the back office's. `staff`: a staff member keeps at least one factor (the only one cannot be removed).
 */
export function SecondFactors({ staff = false }: { staff?: boolean }) {
  const { data, error } = useQuery(factorSummaryQuery());
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: factorKeys.all });
  const factors = data ? data.passkeys + (data.totp ? 1 : 0) : 0;
  return (
    <section aria-labelledby="factors-heading" className="space-y-4">
      <div>
        <h2 id="factors-heading" className="text-lg font-semibold text-slate-900">
          Second factors
        </h2>
        <p className="text-sm text-slate-700">
          With a second factor, your password alone no longer signs anyone in: a sign-in also needs your passkey or a code from your app.
        </p>
      </div>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      <Passkeys onAdded={refresh} />
      {data ? (
        <AuthenticatorApp enrolled={data.totp} recoveryCodesLeft={data.recoveryCodesLeft} canRemove={!staff || factors > 1} onEnrolled={refresh} />
      ) : null}
    </section>
  );
}
