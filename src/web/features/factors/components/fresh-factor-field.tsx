import { type ChangeEvent, useId } from 'react';
import { TextField } from '../../../components/ui/form';

/**
 * The field a sensitive change asks for its fresh second factor (ADR 025): a code from the
 * authenticator app or a recovery code; with a passkey too, leaving it empty asks the browser for
 * the passkey instead. An account with passkeys only is told the browser will ask.
 */
export function FreshFactorField({
  factors,
  value,
  onChange,
  error,
  label = 'Code from your authenticator app',
}: {
  factors: { totp: boolean; passkeys: number } | undefined;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  label?: string;
}) {
  const id = useId();
  const hasApp = !!factors?.totp;
  const hasPasskey = (factors?.passkeys ?? 0) > 0;
  if (!hasApp && !hasPasskey) return null;
  if (!hasApp) return <p className="text-sm text-slate-800">Your browser will ask for your passkey, to confirm that it is you.</p>;
  return (
    <TextField
      id={`fresh-factor-${id}`}
      label={label}
      hint={hasPasskey ? 'Or one of your recovery codes. Leave it empty to confirm with your passkey instead.' : 'Or one of your recovery codes.'}
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={24}
      required={!hasPasskey}
      error={error}
      value={value}
      onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
    />
  );
}
