import { useState, type FormEvent } from 'react';
import { PASSWORD_LENGTH_MIN } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { changePassword } from '../api';

export function PasswordForm() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    if (!oldPassword || !newPassword || !confirmPassword) {
      setResult({ tone: 'error', text: 'All fields are required' });
      return;
    }
    if (newPassword !== confirmPassword) {
      setResult({ tone: 'error', text: 'Passwords do not match' });
      return;
    }
    setBusy(true);
    try {
      setResult({ tone: 'success', text: await changePassword(oldPassword, newPassword) });
      setOldPassword('');
      setNewPassword('');
      setConfirmPassword('');
    } catch (caught) {
      setResult({ tone: 'error', text: errorMessage(caught) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-5">
      {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        value={oldPassword}
        onChange={(event) => setOldPassword(event.target.value)}
        required
        maxLength={128}
      />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(event) => setNewPassword(event.target.value)}
        required
        maxLength={128}
        hint={`At least ${PASSWORD_LENGTH_MIN} characters. Your other sessions will be signed out.`}
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
        required
        maxLength={128}
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
