import { useState, type FormEvent } from 'react';
import type { UserDto } from '../../../../shared/contracts/user';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField, TextField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { updateProfile } from '../api';

/**
 * Edit Profile: names read-only; email, phone, address and state editable. A new email needs the
 * current password, then the code the bank mails to the new address.
 */
export function ProfileEditForm({ user }: { user: UserDto }) {
  const [email, setEmail] = useState(user.email);
  const [phoneNumber, setPhoneNumber] = useState(user.phone);
  const [address, setAddress] = useState(user.location.address);
  const [state, setState] = useState(user.location.state);
  const [password, setPassword] = useState('');
  const [emailCode, setEmailCode] = useState('');
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');

  const emailChanged = email.trim().toLowerCase() !== user.email;
  const awaitingCode = codeSentTo !== null && codeSentTo === email.trim().toLowerCase();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setMessage('');
    setError('');
    if (!email.trim() || !phoneNumber.trim() || !address.trim() || !state.trim()) {
      setError('All fields are required');
      return;
    }
    if (emailChanged && !awaitingCode && !password) {
      setError('Please enter your current password to change your email address.');
      return;
    }
    setBusy(true);
    try {
      const answer = await updateProfile({
        firstName: user.firstName,
        lastName: user.lastName,
        phoneNumber: phoneNumber.trim(),
        address: address.trim(),
        state: state.trim(),
        ...(emailChanged ? { email: email.trim(), ...(awaitingCode ? { emailCode: emailCode.trim() } : { password }) } : {}),
      });
      setMessage(answer.message);
      setPassword('');
      if (answer.emailChangePending) setCodeSentTo(email.trim().toLowerCase());
      else {
        setCodeSentTo(null);
        setEmailCode('');
        setEmail(answer.user.email);
        setPhoneNumber(answer.user.phone);
      }
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {message ? (
        <div role="status" className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-800">
          {message}
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="First name" value={user.firstName} readOnly hint="Contact support to change your name." />
        <TextField label="Last name" value={user.lastName} readOnly />
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} required maxLength={254} />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          value={phoneNumber}
          onChange={(event) => setPhoneNumber(event.target.value)}
          required
          maxLength={25}
          hint="With the country code, e.g. +1 202 555 0101"
        />
        <TextField
          label="Address"
          autoComplete="street-address"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          required
          maxLength={200}
        />
        <TextField label="State" autoComplete="address-level1" value={state} onChange={(event) => setState(event.target.value)} required maxLength={80} />
      </div>
      {emailChanged && !awaitingCode ? (
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
          hint="Needed to change your email address."
        />
      ) : null}
      {emailChanged && awaitingCode ? (
        <TextField
          label="Code sent to your new email"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={emailCode}
          onChange={(event) => setEmailCode(event.target.value)}
          maxLength={6}
          required
          hint={`Enter the 6-digit code we sent to ${codeSentTo}.`}
        />
      ) : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Saving...' : emailChanged && awaitingCode ? 'Confirm new email' : 'Update Profile'}
      </Button>
    </form>
  );
}
