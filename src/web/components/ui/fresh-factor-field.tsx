import type { ComponentPropsWithRef } from 'react';
import { TextField } from './form';

/**
 * The field a sensitive change asks for its fresh second factor (ADR 025): a code from the
 * authenticator app or a recovery code; with a passkey too, leaving it empty asks the browser for
 * the passkey instead. An account with passkeys only is told the browser will ask; one with no
 * second factor gets nothing. The rest of the props are the input's: a react-hook-form
 * registration, or a value and its onChange.
 */
export function FreshFactorField({
  factors,
  error,
  invalid,
  label = 'Code from your authenticator app',
  ...input
}: {
  factors: { totp: boolean; passkeys: number } | undefined;
  error?: string | undefined;
  invalid?: boolean;
  label?: string;
} & Omit<ComponentPropsWithRef<'input'>, 'type'>) {
  const hasApp = !!factors?.totp;
  const hasPasskey = (factors?.passkeys ?? 0) > 0;
  if (!hasApp && !hasPasskey) return null;
  if (!hasApp) return <p className="text-sm text-slate-800">Your browser will then ask for your passkey, to confirm that it is you.</p>;
  return (
    <TextField
      label={label}
      hint={
        hasPasskey
          ? 'Or one of your recovery codes. Leave it empty to confirm with your passkey instead.'
          : 'Or one of your recovery codes. A second factor confirms that it is you.'
      }
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={24}
      required={!hasPasskey}
      {...(error ? { error } : {})}
      {...(invalid ? { invalid } : {})}
      {...input}
    />
  );
}
