import type { PayeeCheck } from '../../../shared/contracts/payment-approval';
import { Alert } from './alert';
import { Button } from './button';

/**
 * Confirmation of payee on a transfer's approval step (ADR 029): what the bank found when it
 * compared the recipient name with the account's holder. The customer decides: a close match
 * offers the holder's name where the name was typed on the form (`onUseName`: the code or passkey
 * approves the name typed, so using it starts the step again; a saved payee's name is not
 * changed from here); a name that does not match is a warning, not a refusal.
 */
export function PayeeCheckNotice({ check, onUseName }: { check: PayeeCheck | undefined; onUseName?: (name: string) => void }) {
  if (!check) return null;
  switch (check.result) {
    case 'match':
      return <Alert tone="success">The name matches the account holder&apos;s name.</Alert>;
    case 'close_match':
      return (
        <Alert tone="warning">
          <p className="font-semibold">The name is close, but this account is held by {check.accountName}.</p>
          <p className="mt-1">
            {onUseName
              ? 'If that is who you mean to pay, use their name. If not, check the account number with them before you go on.'
              : 'If that is who you mean to pay, you can go on. If not, check the account number with them before you go on.'}
          </p>
          {check.accountName && onUseName ? (
            <Button variant="secondary" className="mt-3" onClick={() => onUseName(check.accountName!)}>
              Use {check.accountName}
            </Button>
          ) : null}
        </Alert>
      );
    case 'no_match':
      return (
        <Alert tone="error">
          <p className="font-semibold">The name does not match this account.</p>
          <p className="mt-1">
            Check the name and account number with the person you are paying. If you pay the wrong account, we may not be able to get the money back. If someone
            told you to ignore this warning, it may be a scam: stop and call us.
          </p>
        </Alert>
      );
    case 'unavailable':
      return (
        <Alert tone="info">
          We cannot check the name on an account at another bank. Make sure the account details are right: check them with the person you are paying.
        </Alert>
      );
  }
}
