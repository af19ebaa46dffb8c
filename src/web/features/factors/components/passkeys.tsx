import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { type Ref, useState } from 'react';
import { useForm } from 'react-hook-form';
import { PASSKEY_NAME_LENGTH_MAX, type PasskeyDto, type PasskeyNameInput, ZPasskeyRenameRequest } from '../../../../shared/contracts/factors';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { useInlineConfirmation } from '../../../lib/focus';
import { formatDate } from '../../../lib/format';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { addPasskey } from '../api/add-passkey';
import { passkeysQuery } from '../api/passkeys';
import { removePasskey } from '../api/remove-passkey';
import { RemoveFactorForm } from './remove-factor-form';
import { renamePasskey } from '../api/rename-passkey';

/**
 * The user's passkeys: each with its name, when it was added and last used, Rename and Remove;
 * and "Add a passkey" (an optional name, then the browser's own prompt).
 */
export function Passkeys({ onAdded }: { onAdded?: () => void }) {
  const { data, isPending, error } = useQuery(passkeysQuery());
  return (
    <section aria-labelledby="passkeys-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
      <div>
        <h3 id="passkeys-heading" className="text-base font-semibold text-slate-900">
          Passkeys
        </h3>
        <p className="text-sm text-slate-700">
          A passkey signs you in with your device&apos;s screen lock (fingerprint, face or PIN). It works only on this bank&apos;s site, so a fake site cannot
          use it.
        </p>
      </div>
      {isPending ? <p role="status">Loading...</p> : null}
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {data && data.length > 0 ? (
        <ul aria-label="Your passkeys" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      ) : null}
      {data && data.length === 0 ? <p className="text-sm text-slate-700">You have no passkeys yet.</p> : null}
      <AddPasskey onAdded={onAdded} />
    </section>
  );
}

function AddPasskey({ onAdded }: { onAdded?: () => void }) {
  // The name is optional: a blank one is left out, and the server names the passkey after the browser.
  const form = useForm<{ name: string }>({
    resolver: contractResolver(ZPasskeyRenameRequest.partial(), { toInput: (values: { name: string }) => (values.name.trim() ? values : {}) }),
    defaultValues: { name: '' },
  });
  const action = useFormAction(form, (values) => addPasskey(values.name.trim() || undefined), {
    successToast: (message) => message ?? 'Passkey added.',
    onSuccess: () => {
      form.reset();
      onAdded?.();
    },
  });
  return (
    <form onSubmit={action.submit} noValidate className="space-y-3">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-56">
          <TextField
            label="Passkey name (optional)"
            hint="So you can tell your passkeys apart, e.g. Work laptop"
            maxLength={PASSKEY_NAME_LENGTH_MAX}
            autoComplete="off"
            {...fieldError(form.formState.errors.name)}
            {...form.register('name')}
          />
        </div>
        <Button type="submit" disabled={action.busy}>
          {action.busy ? 'Waiting for your device...' : 'Add a passkey'}
        </Button>
      </div>
    </form>
  );
}

function PasskeyRow({ passkey }: { passkey: PasskeyDto }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'remove'>('view');
  // Each form replaces the row's buttons: focus moves into it, and Escape or Cancel puts it back on
  // the button that opened it (lib/focus.ts). Saved or removed, useAction finds focus a place.
  const rename = useInlineConfirmation<HTMLFormElement>({ open: mode === 'rename', onCancel: () => setMode('view') });
  const remove = useInlineConfirmation<HTMLFormElement>({ open: mode === 'remove', onCancel: () => setMode('view') });
  return (
    <li className="space-y-3 px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <KeyRound aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-slate-600" />
          <div className="min-w-0">
            <p className="break-words font-medium text-slate-900">{passkey.name}</p>
            <p className="text-sm text-slate-700">
              Added {formatDate(passkey.createdAt, 'date')} · {passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt, 'dateTime')}` : 'not used yet'}
            </p>
          </div>
        </div>
        {mode === 'view' ? (
          <div className="flex gap-2">
            <Button ref={rename.opener} variant="secondary" aria-label={`Rename passkey ${passkey.name}`} onClick={() => setMode('rename')}>
              Rename
            </Button>
            <Button ref={remove.opener} variant="danger" aria-label={`Remove passkey ${passkey.name}`} onClick={() => setMode('remove')}>
              Remove
            </Button>
          </div>
        ) : null}
      </div>
      {mode === 'rename' ? <RenameForm passkey={passkey} onDone={() => setMode('view')} onCancel={rename.cancel} ref={rename.panel} /> : null}
      {mode === 'remove' ? (
        <RemoveFactorForm
          question={`Remove "${passkey.name}"? You will no longer be able to sign in with it, and your other sessions will be signed out.`}
          submitLabel="Remove passkey"
          removedToast="Passkey removed."
          remove={(proof) => removePasskey(passkey.id, proof)}
          onCancel={remove.cancel}
          ref={remove.panel}
        />
      ) : null}
    </li>
  );
}

function RenameForm({ passkey, onDone, onCancel, ref }: { passkey: PasskeyDto; onDone: () => void; onCancel: () => void; ref?: Ref<HTMLFormElement> }) {
  const form = useForm<PasskeyNameInput>({ resolver: contractResolver(ZPasskeyRenameRequest), defaultValues: { name: passkey.name } });
  const action = useFormAction(form, (values) => renamePasskey(passkey.id, values.name.trim()), {
    successToast: (message) => message ?? 'Passkey renamed.',
    onSuccess: onDone,
  });
  return (
    <form ref={ref} onSubmit={action.submit} noValidate className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 basis-56">
        <TextField label="New name" maxLength={PASSKEY_NAME_LENGTH_MAX} {...fieldError(form.formState.errors.name)} {...form.register('name')} />
      </div>
      <Button type="submit" disabled={action.busy}>
        Save
      </Button>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      {action.error && !form.formState.errors.name ? <p className="w-full text-sm text-red-800">{action.error.message}</p> : null}
    </form>
  );
}
