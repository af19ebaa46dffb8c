import { Fragment, type Ref, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type TotpCodeInput, ZTotpConfirmRequest } from '../../../../shared/contracts/factors';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { QrCode } from '../../../components/ui/qr-code';
import { TextField } from '../../../components/ui/form';
import { useAction } from '../../../lib/action';
import { useInlineConfirmation } from '../../../lib/focus';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { confirmTotp } from '../api/confirm-totp';
import { enrolTotp, type TotpEnrolment } from '../api/enrol-totp';
import { removeTotp } from '../api/remove-totp';
import { RemoveFactorForm } from './remove-factor-form';
import { RecoveryCodes } from './recovery-codes';

/**
 * The authenticator app: set it up (a QR code to scan, or the key to type, then a first code), see
 * the recovery codes once with a clear "save these" step, or remove it. `canRemove` is false for a
 * staff member whose only factor it is (the server refuses too).
 */
export function AuthenticatorApp({
  enrolled,
  recoveryCodesLeft,
  canRemove,
  onEnrolled,
}: {
  enrolled: boolean;
  recoveryCodesLeft: number;
  canRemove: boolean;
  onEnrolled?: () => void;
}) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = useAction(() => enrolTotp(), { onSuccess: setEnrolment, refresh: false });
  // The set-up steps replace the button that started them: focus moves to the code's field, and
  // Escape or Cancel goes back to that button (lib/focus.ts).
  const setUp = useInlineConfirmation<HTMLDivElement>({ open: enrolment !== null, onCancel: () => setEnrolment(null) });

  let body;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          onEnrolled?.();
        }}
      />
    );
  } else if (enrolment) {
    body = (
      <Enrolment
        enrolment={enrolment}
        onConfirmed={(codes) => {
          setEnrolment(null);
          setRecoveryCodes(codes);
        }}
        onCancel={setUp.cancel}
        ref={setUp.panel}
      />
    );
  } else if (enrolled) {
    body = <Enrolled recoveryCodesLeft={recoveryCodesLeft} canRemove={canRemove} />;
  } else {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Use an app such as Google Authenticator, Microsoft Authenticator or 1Password: it shows a new 6-digit code every 30 seconds.
        </p>
        {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
        <Button ref={setUp.opener} disabled={start.busy} onClick={() => void start.run()}>
          {start.busy ? 'Starting...' : 'Set up an authenticator app'}
        </Button>
      </div>
    );
  }

  return (
    <section aria-labelledby="totp-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
      <h3 id="totp-heading" className="text-base font-semibold text-slate-900">
        Authenticator app
      </h3>
      {body}
    </section>
  );
}

function Enrolled({ recoveryCodesLeft, canRemove }: { recoveryCodesLeft: number; canRemove: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const removal = useInlineConfirmation<HTMLFormElement>({ open: confirming, onCancel: () => setConfirming(false) });
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-800">
        <span className="mr-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">On</span>
        Sign-ins ask for a code from your app. {recoveryCodesLeft} of 10 recovery codes left.
      </p>
      {!canRemove ? <p className="text-sm text-slate-700">Staff must keep a second factor: add a passkey before removing the app.</p> : null}
      {canRemove && !confirming ? (
        <Button ref={removal.opener} variant="danger" onClick={() => setConfirming(true)}>
          Remove authenticator app
        </Button>
      ) : null}
      {confirming ? (
        <RemoveFactorForm
          question="Remove the app and its recovery codes? Sign-ins will no longer ask for its codes, and your other sessions will be signed out."
          submitLabel="Yes, remove it"
          removedToast="Authenticator app removed."
          remove={removeTotp}
          onCancel={removal.cancel}
          ref={removal.panel}
        />
      ) : null}
    </div>
  );
}

/** Groups of four, as the key is easier to type that way. */
const groups = (secret: string) => secret.match(/.{1,4}/g) ?? [secret];

function Enrolment({
  enrolment,
  onConfirmed,
  onCancel,
  ref,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
  ref?: Ref<HTMLDivElement>;
}) {
  const form = useForm<TotpCodeInput>({ resolver: contractResolver(ZTotpConfirmRequest), defaultValues: { code: '' } });
  const action = useFormAction(form, (values) => confirmTotp(values.code), { onSuccess: onConfirmed, refresh: false });

  return (
    <div ref={ref} className="space-y-4">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-800">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <QrCode value={enrolment.uri} label="QR code to add this account to your authenticator app" className="mt-2" />
          <p className="mt-2">
            Cannot scan it? Type this key instead:{' '}
            {/* A narrow screen wraps the key between groups, never inside one ("B" / "25J"): each
                group is unbreakable, and the spaces between them are where lines may end. */}
            <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-900 box-decoration-clone" data-testid="totp-secret">
              {groups(enrolment.secret).map((group, index) => (
                <Fragment key={index}>
                  {index > 0 ? ' ' : null}
                  <span className="whitespace-nowrap">{group}</span>
                </Fragment>
              ))}
            </code>
          </p>
        </li>
        <li>
          <p>Enter the 6-digit code the app shows.</p>
          <form onSubmit={action.submit} noValidate className="mt-2 flex flex-wrap items-end gap-3">
            <div className="w-48">
              <TextField
                label="Code from the app"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                {...fieldError(form.formState.errors.code)}
                {...form.register('code')}
              />
            </div>
            <Button type="submit" disabled={action.busy}>
              {action.busy ? 'Checking...' : 'Turn on'}
            </Button>
            <Button variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          </form>
        </li>
      </ol>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
    </div>
  );
}
