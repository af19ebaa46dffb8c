import { useId, useState, type ComponentPropsWithRef, type ReactNode } from 'react';

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600 disabled:bg-slate-100 disabled:text-slate-600 read-only:bg-slate-100 aria-[invalid=true]:border-red-700';

interface FieldProps {
  label: string;
  /** The field's own message, shown under it. */
  error?: string;
  /** Marks the field as at fault when its message is shown elsewhere (the form's alert). */
  invalid?: boolean;
  hint?: ReactNode;
}

function FieldFrame({ id, label, error, hint, children }: Omit<FieldProps, 'invalid'> & { id: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

export function TextField({ label, error, invalid, hint, id: givenId, className, ...props }: FieldProps & ComponentPropsWithRef<'input'>) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        className={`${inputClass} ${className ?? ''}`}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...props}
      />
    </FieldFrame>
  );
}

export function PasswordField({ label, error, invalid, hint, id: givenId, ...props }: FieldProps & Omit<ComponentPropsWithRef<'input'>, 'type'>) {
  const generated = useId();
  const id = givenId ?? generated;
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={`${inputClass} pr-20`}
          aria-invalid={error || invalid ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
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

export function SelectField({ label, error, invalid, hint, id: givenId, children, className, ...props }: FieldProps & ComponentPropsWithRef<'select'>) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        className={`${inputClass} ${className ?? ''}`}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...props}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({ label, error, invalid, hint, id: givenId, className, ...props }: FieldProps & ComponentPropsWithRef<'textarea'>) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        className={`${inputClass} ${className ?? ''}`}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...props}
      />
    </FieldFrame>
  );
}
