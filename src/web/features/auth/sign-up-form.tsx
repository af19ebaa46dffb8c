import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ZSignUpRequest } from '../../../shared/contracts/auth';
import type { CountryOption } from '../../../shared/countries';
import { ACCOUNT_TYPES, EMPLOYMENT_TYPES, SALARY_RANGES, SEX_OPTIONS } from '../../../shared/reference';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/form';
import { api, errorMessage } from '../../lib/api';
import { useTimedMessage } from './use-timed-message';
import { paths } from '../../paths';

const TERMS_MESSAGE = 'You must agree to the Privacy Policy and Terms & Conditions to continue.';

const empty = {
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
};

export function SignUpForm({ countries }: { countries: CountryOption[] }) {
  const navigate = useNavigate();
  const [form, setForm] = useState(empty);
  const [showPassword, setShowPassword] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useTimedMessage(3000);

  const dialCode = countries.find((country) => country.region === form.region)?.dialCode ?? '';
  const set = (name: keyof typeof empty) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const { region: _region, ...rest } = form;
    const body = { ...rest, countryCode: dialCode, ssnTIN: dialCode === '1' ? undefined : form.ssnTIN };
    const parsed = ZSignUpRequest.safeParse(body);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? '_')] ??= issue.message;
      setFieldErrors(errors);
      setError(parsed.error.issues[0]?.message ?? 'Please check the form');
      return;
    }
    if (!agreed) {
      setFieldErrors({ terms: TERMS_MESSAGE });
      setError(TERMS_MESSAGE);
      return;
    }
    setFieldErrors({});
    setBusy(true);
    try {
      const response = await api.post('/auth/signup', body, { redirectOn401: false });
      navigate(paths.signin, { state: { notice: response.message ?? 'Account created. Sign in to verify your email.' } });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  const passwordType = showPassword ? 'text' : 'password';
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5" aria-busy={busy}>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          value={form.firstName}
          onChange={set('firstName')}
          error={fieldErrors.firstName}
          required
          maxLength={80}
        />
        <TextField
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          value={form.lastName}
          onChange={set('lastName')}
          error={fieldErrors.lastName}
          required
          maxLength={80}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={form.email}
          onChange={set('email')}
          error={fieldErrors.email}
          required
          maxLength={254}
        />
        <TextField
          label="Date of birth"
          type="date"
          name="dateOfBirth"
          autoComplete="bday"
          value={form.dateOfBirth}
          onChange={set('dateOfBirth')}
          error={fieldErrors.dateOfBirth}
          required
        />
        <div className="sm:col-span-2">
          <TextField
            label="Address"
            name="address"
            autoComplete="street-address"
            value={form.address}
            onChange={set('address')}
            error={fieldErrors.address}
            required
            maxLength={200}
          />
        </div>
        <SelectField label="Sex" name="sex" value={form.sex} onChange={set('sex')} error={fieldErrors.sex} required>
          <option value="">Select</option>
          {SEX_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Country"
          name="countryCode"
          autoComplete="country"
          value={form.region}
          onChange={set('region')}
          error={fieldErrors.countryCode}
          required
        >
          {countries.map((country) => (
            <option key={country.region} value={country.region}>
              {country.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Phone"
          type="tel"
          name="phone"
          autoComplete="tel"
          value={form.phone}
          onChange={set('phone')}
          error={fieldErrors.phone}
          required
          maxLength={20}
          hint={`Country code +${dialCode}`}
        />
        {dialCode !== '1' ? (
          <TextField
            label="SSN/TIN"
            name="ssnTIN"
            autoComplete="off"
            value={form.ssnTIN}
            onChange={set('ssnTIN')}
            error={fieldErrors.ssnTIN}
            required
            maxLength={32}
          />
        ) : null}
        <SelectField label="Employment type" name="occupation" value={form.occupation} onChange={set('occupation')} error={fieldErrors.occupation} required>
          <option value="">Select employment type</option>
          {EMPLOYMENT_TYPES.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Salary range"
          name="annualIncomeRange"
          value={form.annualIncomeRange}
          onChange={set('annualIncomeRange')}
          error={fieldErrors.annualIncomeRange}
          required
        >
          <option value="">Select salary range</option>
          {SALARY_RANGES.map((range) => (
            <option key={range} value={range}>
              {range}
            </option>
          ))}
        </SelectField>
        <SelectField label="Account type" name="accountType" value={form.accountType} onChange={set('accountType')} error={fieldErrors.accountType} required>
          <option value="">Select account type</option>
          {ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Password"
          type={passwordType}
          name="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          error={fieldErrors.password}
          required
          minLength={8}
          maxLength={128}
          hint="At least 8 characters; common passwords are refused."
        />
        <TextField
          label="Confirm password"
          type={passwordType}
          name="confirmPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={set('confirmPassword')}
          error={fieldErrors.confirmPassword}
          required
          minLength={8}
          maxLength={128}
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
            name="terms"
            checked={agreed}
            onChange={(event) => setAgreed(event.target.checked)}
            className="mt-0.5 h-4 w-4"
            aria-describedby={fieldErrors.terms ? 'terms-error' : undefined}
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
        {fieldErrors.terms ? (
          <p id="terms-error" className="mt-1 text-sm text-red-700">
            {fieldErrors.terms}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Loading...' : 'Create Account'}
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
