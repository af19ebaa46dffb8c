import { useId, useState, type ComponentPropsWithRef, type ReactNode } from 'react';
import { EMAIL_LENGTH_MAX } from '../../../shared/limits';

// A read-only field is grey by its `readonly` attribute, not by `:read-only`: that pseudo-class also
// matches every select and file input (they are not editable text), which then looked disabled.
const inputClass =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600 disabled:bg-slate-100 disabled:text-slate-600 [&[readonly]]:bg-slate-100 aria-[invalid=true]:border-red-700';

/** A file input: a white field whose button reads as the app's secondary button. */
export const fileInputClass =
  'mt-1 block w-full cursor-pointer rounded-md border border-slate-400 bg-white p-1.5 text-sm text-slate-800 shadow-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-700 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-brand-700 file:bg-white file:px-4 file:py-2 file:text-sm file:font-semibold file:text-brand-800 hover:file:bg-brand-50';

interface FieldProps {
  label: string;
  /** The field's own message, shown under it and read as its description (`fieldError` gives it). */
  error?: string | undefined;
  /** The field was left blank where the form asks for everything: its message is "<label> is required". */
  missing?: boolean | undefined;
  /** Marks the field as at fault; give its message too (`error`), so a screen reader hears what to fix at the field. */
  invalid?: boolean | undefined;
  hint?: ReactNode;
}

/**
 * The field's own message: the one given, or, for a blank field of a form whose alert says "All
 * fields are required", one that names this field (the alert keeps the spec's words; the field
 * says which one is missing). A parenthesis in the label ("(USD)") is left out.
 */
const messageOf = ({ label, error, missing }: Pick<FieldProps, 'label' | 'error' | 'missing'>) =>
  error || (missing ? `${label.replace(/\s*\([^)]*\)$/, '')} is required` : undefined);

function FieldFrame({ id, label, message, hint, children }: { id: string; label: string; message: string | undefined; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {/* Not a live region: the form's alert announces the failure once; this is read with the field. */}
      {message ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {message}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The input's description: its own message first (what to fix), then its hint. Never the form's
 * alert, which speaks for the whole form and is announced once when it appears.
 */
const describedBy = (id: string, message?: string, hint?: ReactNode) =>
  [message ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

export function TextField({ label, error, missing, invalid, hint, id: givenId, className, ...props }: FieldProps & ComponentPropsWithRef<'input'>) {
  const generated = useId();
  const id = givenId ?? generated;
  const message = messageOf({ label, error, missing });
  return (
    <FieldFrame id={id} label={label} message={message} hint={hint}>
      <input
        id={id}
        className={`${props.type === 'file' ? fileInputClass : inputClass} ${className ?? ''}`}
        aria-invalid={message || invalid ? true : undefined}
        aria-describedby={describedBy(id, message, hint)}
        {...props}
      />
    </FieldFrame>
  );
}

/**
 * An amount of money: text with the phone's decimal keypad, never a number input. A number input
 * drops what it cannot read as the customer types (Chromium makes "12,50" 1250, so $1,250.00 would
 * be asked for), and empties "abc"; as text, the contract says what is wrong with what was typed
 * ("Amount must be typed without commas, e.g. 1000.00").
 */
export function AmountField(props: FieldProps & Omit<ComponentPropsWithRef<'input'>, 'type' | 'inputMode' | 'min' | 'max' | 'step'>) {
  return <TextField inputMode="decimal" autoComplete="off" {...props} />;
}

/**
 * An email address: labelled "Email", typed as one (the phone's keyboard), required and no longer
 * than the contracts take. `autoComplete`: "email" for one's own address, "username" where it signs
 * in, "off" where staff type someone else's.
 */
export function EmailField({
  autoComplete,
  ...props
}: Omit<FieldProps, 'label'> & Omit<ComponentPropsWithRef<'input'>, 'type' | 'autoComplete'> & { autoComplete: 'email' | 'username' | 'off' }) {
  return <TextField label="Email" type="email" autoComplete={autoComplete} required maxLength={EMAIL_LENGTH_MAX} {...props} />;
}

export function PasswordField({ label, error, missing, invalid, hint, id: givenId, ...props }: FieldProps & Omit<ComponentPropsWithRef<'input'>, 'type'>) {
  const generated = useId();
  const id = givenId ?? generated;
  const message = messageOf({ label, error, missing });
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} message={message} hint={hint}>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={`${inputClass} pr-20`}
          aria-invalid={message || invalid ? true : undefined}
          aria-describedby={describedBy(id, message, hint)}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((value) => !value)}
          className="absolute inset-y-0 right-0 mt-1 px-3 text-sm font-medium text-brand-800 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          aria-pressed={visible}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </FieldFrame>
  );
}

export function SelectField({
  label,
  error,
  missing,
  invalid,
  hint,
  id: givenId,
  children,
  className,
  ...props
}: FieldProps & ComponentPropsWithRef<'select'>) {
  const generated = useId();
  const id = givenId ?? generated;
  const message = messageOf({ label, error, missing });
  return (
    <FieldFrame id={id} label={label} message={message} hint={hint}>
      <select
        id={id}
        className={`${inputClass} ${className ?? ''}`}
        aria-invalid={message || invalid ? true : undefined}
        aria-describedby={describedBy(id, message, hint)}
        {...props}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({ label, error, missing, invalid, hint, id: givenId, className, ...props }: FieldProps & ComponentPropsWithRef<'textarea'>) {
  const generated = useId();
  const id = givenId ?? generated;
  const message = messageOf({ label, error, missing });
  return (
    <FieldFrame id={id} label={label} message={message} hint={hint}>
      <textarea
        id={id}
        className={`${inputClass} ${className ?? ''}`}
        aria-invalid={message || invalid ? true : undefined}
        aria-describedby={describedBy(id, message, hint)}
        {...props}
      />
    </FieldFrame>
  );
}
