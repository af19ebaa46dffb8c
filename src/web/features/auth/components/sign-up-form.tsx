import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { SignUpRequest } from '../../../../shared/contracts/signup';
import type { CountryOption } from '../../../../shared/countries';
import { ADDRESS_LENGTH_MAX, NAME_LENGTH_MAX, PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN, PHONE_LENGTH_MAX } from '../../../../shared/limits';
import { ACCOUNT_TYPES, EMPLOYMENT_TYPES, SALARY_RANGES, SEX_OPTIONS } from '../../../../shared/reference';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmailField, SelectField, TextField } from '../../../components/ui/form';
import { PasswordStrength } from '../../../components/ui/password-strength';
import { contractResolver, fieldError, lazyContract, useFormAction } from '../../../lib/form';
import { paths } from '../../../paths';
import { signUp } from '../api';

// The contract loads at the form's first focus, with zod and the phone-number rules it checks
// (libphonenumber): most of what the form needs, kept out of the page's first download.
const signUpContract = lazyContract(() => import('../../../../shared/contracts/signup').then((contract) => contract.ZSignUpRequest));

const TERMS_MESSAGE = 'You must agree to the Privacy Policy and Terms & Conditions to continue.';
const SIGNED_UP_NOTICE = 'Check your email, then sign in to verify it.';

/** The contract's fields, except that the country is chosen by region (two regions share +1) and the terms box. */
type SignUpValues = Omit<SignUpRequest, 'countryCode' | 'ssnTIN' | 'sex' | 'occupation' | 'annualIncomeRange' | 'accountType'> & {
  sex: string;
  occupation: string;
  annualIncomeRange: string;
  accountType: string;
  region: string;
  ssnTIN: string;
  terms: boolean;
};

const empty: SignUpValues = {
  firstName: '',
  lastName: '',
  email: '',
  address: '',
  dateOfBirth: '',
  sex: '',
  region: 'US',
  phone: '',
  occupation: '',
  annualIncomeRange: '',
  accountType: '',
  ssnTIN: '',
  password: '',
  confirmPassword: '',
  terms: false,
};

export function SignUpForm({ countries }: { countries: CountryOption[] }) {
  const navigate = useNavigate();
  const [showPassword, setShowPassword] = useState(false);
  const dialCodeOf = useMemo(() => {
    const byRegion = new Map(countries.map((country) => [country.region as string, country.dialCode]));
    return (region: string) => byRegion.get(region) ?? '';
  }, [countries]);
  /** What the API receives: the dial code of the chosen country; the SSN/TIN only outside +1. */
  const toRequest = ({ region, terms: _terms, ssnTIN, ...rest }: SignUpValues): SignUpRequest => {
    const countryCode = dialCodeOf(region);
    return { ...rest, countryCode, ssnTIN: countryCode === '1' ? undefined : ssnTIN } as SignUpRequest;
  };
  const form = useForm<SignUpValues>({
    resolver: contractResolver(signUpContract, {
      toInput: toRequest,
      fieldOf: { countryCode: 'region' },
      check: (values) => (values.terms ? null : { terms: TERMS_MESSAGE }),
    }),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  const action = useFormAction(form, (values) => signUp(toRequest(values)), {
    errorMs: 3000,
    refresh: false,
    onSuccess: (message) => navigate(paths.signin, { state: { notice: message ?? SIGNED_UP_NOTICE } }),
  });

  const dialCode = dialCodeOf(form.watch('region'));
  const [password, firstName, lastName, email] = form.watch(['password', 'firstName', 'lastName', 'email']);
  const passwordType = showPassword ? 'text' : 'password';
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={action.submit} onFocus={signUpContract.preload} noValidate className="space-y-5" aria-busy={action.busy}>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          autoComplete="given-name"
          required
          maxLength={NAME_LENGTH_MAX}
          {...fieldError(errors.firstName)}
          {...form.register('firstName')}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          required
          maxLength={NAME_LENGTH_MAX}
          {...fieldError(errors.lastName)}
          {...form.register('lastName')}
        />
        <EmailField autoComplete="email" {...fieldError(errors.email)} {...form.register('email')} />
        <TextField label="Date of birth" type="date" autoComplete="bday" required {...fieldError(errors.dateOfBirth)} {...form.register('dateOfBirth')} />
        <div className="sm:col-span-2">
          <TextField
            label="Address"
            autoComplete="street-address"
            required
            maxLength={ADDRESS_LENGTH_MAX}
            {...fieldError(errors.address)}
            {...form.register('address')}
          />
        </div>
        <SelectField label="Sex" required {...fieldError(errors.sex)} {...form.register('sex')}>
          <option value="">Select</option>
          {SEX_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
        <SelectField label="Country" autoComplete="country" required {...fieldError(errors.region)} {...form.register('region')}>
          {countries.map((country) => (
            <option key={country.region} value={country.region}>
              {country.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Phone"
          type="tel"
          autoComplete="tel"
          required
          maxLength={PHONE_LENGTH_MAX}
          hint={`Country code +${dialCode}`}
          {...fieldError(errors.phone)}
          {...form.register('phone')}
        />
        {dialCode !== '1' ? (
          <TextField label="SSN/TIN" autoComplete="off" required maxLength={32} {...fieldError(errors.ssnTIN)} {...form.register('ssnTIN')} />
        ) : null}
        <SelectField label="Employment type" required {...fieldError(errors.occupation)} {...form.register('occupation')}>
          <option value="">Select employment type</option>
          {EMPLOYMENT_TYPES.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </SelectField>
        <SelectField label="Salary range" required {...fieldError(errors.annualIncomeRange)} {...form.register('annualIncomeRange')}>
          <option value="">Select salary range</option>
          {SALARY_RANGES.map((range) => (
            <option key={range} value={range}>
              {range}
            </option>
          ))}
        </SelectField>
        <SelectField label="Account type" required {...fieldError(errors.accountType)} {...form.register('accountType')}>
          <option value="">Select account type</option>
          {ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
        <div>
          <TextField
            label="Password"
            type={passwordType}
            autoComplete="new-password"
            required
            minLength={PASSWORD_LENGTH_MIN}
            maxLength={PASSWORD_LENGTH_MAX}
            hint="At least 8 characters, hard to guess: common passwords and predictable patterns are refused."
            {...fieldError(errors.password)}
            {...form.register('password')}
          />
          <PasswordStrength password={password} userInputs={[firstName, lastName, email]} />
        </div>
        <TextField
          label="Confirm password"
          type={passwordType}
          autoComplete="new-password"
          required
          minLength={PASSWORD_LENGTH_MIN}
          maxLength={PASSWORD_LENGTH_MAX}
          {...fieldError(errors.confirmPassword)}
          {...form.register('confirmPassword')}
        />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={showPassword} onChange={(event) => setShowPassword(event.target.checked)} className="h-4 w-4" />
        Show password
      </label>
      <div>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4"
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? 'terms-error' : undefined}
            {...form.register('terms')}
          />
          <span>
            I agree to the{' '}
            <Link to={paths.privacyPolicy} className="font-medium text-brand-800 underline">
              Privacy Policy
            </Link>{' '}
            and{' '}
            <Link to={paths.termsAndConditions} className="font-medium text-brand-800 underline">
              Terms &amp; Conditions
            </Link>
            .
          </span>
        </label>
        {errors.terms ? (
          <p id="terms-error" className="mt-1 text-sm text-red-700">
            {errors.terms.message}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Create Account'}
      </Button>
      <p className="text-center text-sm">
        Already have an account?{' '}
        <Link to={paths.signin} className="font-medium text-brand-800 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
