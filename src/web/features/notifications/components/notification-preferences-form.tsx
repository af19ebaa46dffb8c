import { useEffect, useId, type ComponentPropsWithRef } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import {
  isAlwaysOn,
  isThresholdKind,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  ZNotificationPreferencesUpdate,
  type NotificationKind,
  type NotificationPreferencesDto,
  type NotificationPreferencesUpdate,
} from '../../../../shared/contracts/notifications';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField } from '../../../components/ui/form';
import { contractResolver, useFormAction } from '../../../lib/form';
import { updateNotificationPreferences } from '../api/update-preferences';

type KindValues = { inApp: boolean; email: boolean; amount: string };
type PreferenceValues = Record<NotificationKind, KindValues>;

const valuesOf = (preferences: NotificationPreferencesDto): PreferenceValues =>
  Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => {
      const { inApp, email, amount } = preferences[kind];
      return [kind, { inApp, email, amount: amount === null ? '' : amount.toFixed(2) }];
    }),
  ) as PreferenceValues;

/** The PUT body: every kind the customer may change, with its amount where it has one (always-on kinds are left out). */
const bodyOf = (values: PreferenceValues): NotificationPreferencesUpdate =>
  Object.fromEntries(
    NOTIFICATION_KINDS.filter((kind) => !isAlwaysOn(kind)).map((kind) => {
      const { inApp, email, amount } = values[kind];
      return [kind, isThresholdKind(kind) ? { inApp, email, amount } : { inApp, email }];
    }),
  );

function Checkbox({ label, disabled, checked, ...props }: { label: string; disabled?: boolean; checked?: boolean } & ComponentPropsWithRef<'input'>) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className="h-4 w-4 rounded border-slate-400 text-brand-700 focus-visible:ring-2 focus-visible:ring-brand-600 disabled:opacity-60"
        disabled={disabled}
        {...(checked !== undefined ? { checked, readOnly: true } : {})}
        {...props}
      />
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}

/**
 * What the customer is told about, per kind: in the app and by email, and the amount for "money
 * sent above" and "balance below". The new-device sign-in alert is shown on, and cannot be changed.
 */
export function NotificationPreferencesForm({ preferences }: { preferences: NotificationPreferencesDto }) {
  const form = useForm<PreferenceValues>({
    resolver: contractResolver(ZNotificationPreferencesUpdate, { toInput: bodyOf }),
    defaultValues: valuesOf(preferences),
  });
  // Saved (or changed elsewhere): the form shows what the bank has.
  useEffect(() => form.reset(valuesOf(preferences)), [form, preferences]);
  const { errors } = form.formState;
  const action = useFormAction(form, async (values) => (await updateNotificationPreferences(bodyOf(values))).message, {
    successToast: (message) => message,
  });

  return (
    <form onSubmit={action.submit} noValidate aria-label="Notification preferences" className="space-y-4">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? <Alert tone="success">{action.result}</Alert> : null}
      <div className="grid gap-4 md:grid-cols-2">
        {NOTIFICATION_KINDS.map((kind) => {
          const { label, hint } = NOTIFICATION_KIND_LABELS[kind];
          const locked = isAlwaysOn(kind);
          const amountError = (errors[kind] as { amount?: FieldError } | undefined)?.amount;
          return (
            <fieldset key={kind} className="rounded-lg border border-slate-200 p-4">
              <legend className="px-1 font-semibold text-slate-900">{label}</legend>
              <p className="mb-3 text-sm text-slate-700">{hint}</p>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {locked ? (
                  <>
                    <Checkbox label="In the app (always on)" disabled checked />
                    <Checkbox label="By email (always on)" disabled checked />
                  </>
                ) : (
                  <>
                    <Checkbox label="In the app" {...form.register(`${kind}.inApp`)} />
                    <Checkbox label="By email" {...form.register(`${kind}.email`)} />
                  </>
                )}
              </div>
              {isThresholdKind(kind) ? (
                <div className="mt-3 max-w-48">
                  <AmountField
                    label={kind === 'money_sent_above' ? 'When more than (USD)' : 'When below (USD)'}
                    error={amountError?.message}
                    {...form.register(`${kind}.amount`)}
                  />
                </div>
              ) : null}
            </fieldset>
          );
        })}
      </div>
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Saving...' : 'Save preferences'}
      </Button>
    </form>
  );
}
