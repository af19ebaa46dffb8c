import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { OTP_LENGTH } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { FALLBACK_ERROR, errorMessage } from '../../../lib/api';
import { useAction } from '../../../lib/action';
import { contractResolver, lazyContract, useFormAction, fieldError } from '../../../lib/form';
import { paths } from '../../../paths';
import { resendEmailCode, verifyEmail } from '../api';

/** The six-digit code mailed at sign-up; a new one on request. */
// The contract (and zod) loads at the form's first focus: the page's first download stays small.
const verifyEmailContract = lazyContract(() => import('../../../../shared/contracts/auth').then((contract) => contract.ZVerifyEmailRequest));

export function EmailVerificationForm() {
  const navigate = useNavigate();
  const form = useForm<{ otp: string }>({ resolver: contractResolver(verifyEmailContract), defaultValues: { otp: '' } });
  const verify = useFormAction(form, (values) => verifyEmail(values.otp.trim()), {
    onError: () => resend.reset(),
    refresh: false,
    onSuccess: () => navigate(paths.accountHome, { replace: true }),
  });
  const resend = useAction(resendEmailCode, {
    refresh: false,
    errorText: (error) => (errorMessage(error) === FALLBACK_ERROR ? 'Failed to send email' : errorMessage(error)),
  });
  const otp = form.register('otp');

  return (
    <>
      <form onSubmit={verify.submit} onFocus={verifyEmailContract.preload} noValidate className="space-y-5">
        {verify.error ? <Alert tone="error">{verify.error.message}</Alert> : null}
        {resend.error ? <Alert tone="error">{resend.error.message}</Alert> : null}
        {resend.done ? <Alert tone="success">Email sent successfully</Alert> : null}
        <TextField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          className="text-center text-2xl tracking-[0.5em]"
          {...fieldError(form.formState.errors.otp)}
          {...otp}
          onChange={(event) => {
            event.target.value = event.target.value.replace(/\D/g, '');
            void otp.onChange(event);
          }}
        />
        <Button type="submit" className="w-full" disabled={verify.busy}>
          {verify.busy ? 'Loading...' : 'Verify'}
        </Button>
      </form>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-2 text-sm">
        <button
          type="button"
          onClick={() => {
            verify.reset();
            void resend.run();
          }}
          className="font-medium text-brand-800 hover:underline"
        >
          Resend code
        </button>
        <p>
          Don&apos;t have an account?{' '}
          <Link to={paths.signup} className="font-medium text-brand-800 hover:underline">
            Sign up
          </Link>
        </p>
      </div>
    </>
  );
}
