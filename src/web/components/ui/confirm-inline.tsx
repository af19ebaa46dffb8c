import { useId, useState, type ReactNode, type Ref, type RefObject } from 'react';
import { useInlineConfirmation } from '../../lib/focus';
import { Button } from './button';

const tones = {
  primary: 'border-slate-300 bg-slate-50 text-slate-900',
  danger: 'border-red-300 bg-red-50 text-red-900',
};

/**
 * A question and its two answers, shown in the page where the button that asked it was: the
 * app's one way to ask "are you sure?" (never the browser's window.confirm, which cannot be
 * styled, is blocked in some embeds, and reads the amount and payee in the browser's words).
 * Open it with useInlineConfirmation (lib/focus.ts): its `panel` as `ref`, its `cancel` as
 * `onCancel`. ConfirmInline does that for the usual single question; DeleteUser's two questions
 * use this directly.
 */
export function ConfirmPanel({
  question,
  details,
  confirmLabel,
  tone = 'primary',
  busy = false,
  onConfirm,
  onCancel,
  ref,
  confirmRef,
  className = '',
}: {
  question: string;
  /** What happens, under the question (read as the question's description). */
  details?: ReactNode;
  confirmLabel: string;
  tone?: keyof typeof tones;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  ref?: Ref<HTMLDivElement>;
  /** The confirm button, for a caller that moves focus there itself (a second question). */
  confirmRef?: Ref<HTMLButtonElement>;
  className?: string;
}) {
  const id = useId();
  return (
    <div
      ref={ref}
      role="alertdialog"
      aria-labelledby={`${id}-question`}
      aria-describedby={details ? `${id}-details` : undefined}
      className={`space-y-3 rounded-lg border p-4 text-left ${tones[tone]} ${className}`}
    >
      <p id={`${id}-question`} className="font-semibold [overflow-wrap:anywhere]">
        {question}
      </p>
      {details ? (
        <p id={`${id}-details`} className="text-sm">
          {details}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button ref={confirmRef} variant={tone} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** What ConfirmInline gives the button that opens it: spread it onto that <Button>. */
export interface ConfirmOpener {
  ref: RefObject<HTMLButtonElement | null>;
  onClick: () => void;
}

/**
 * A button that asks first. `children` renders what shows while no question is open (the button,
 * or the row's group of buttons it belongs to) and spreads `opener` onto the button that asks;
 * the question replaces all of it. Focus moves to the confirm button; Escape or Cancel closes the
 * question and puts focus back on the opener. Confirming runs `onConfirm` (a useAction's `run`,
 * which owns the toasts and the refresh) with the confirm button busy, then closes the question
 * and puts focus back on the opener if it is still there; when the row left with the change,
 * useAction's restoreFocus moves focus to the row that took its place.
 */
export function ConfirmInline({
  question,
  details,
  confirmLabel,
  busyLabel,
  tone = 'primary',
  onConfirm,
  className,
  width,
  children,
}: {
  /** The whole question, with the amount and the name it is about. */
  question: string;
  details?: ReactNode;
  confirmLabel: string;
  /** The confirm button's text while the call runs (e.g. 'Removing...'). */
  busyLabel?: string;
  tone?: 'primary' | 'danger';
  onConfirm: () => Promise<unknown>;
  /** The panel's own classes: its width where it stands (it fills its line by default). */
  className?: string;
  /**
   * One width for what `children` shows (put in a box of that width) and for the question that
   * takes its place, e.g. 'md:w-52' in a table's actions column: opening the question moves
   * nothing else, where a question as wide as its words widens its column and the whole table
   * jumps. Below the class's breakpoint the question fills its line, as it does without it.
   */
  width?: string;
  children: (opener: ConfirmOpener) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmation = useInlineConfirmation<HTMLDivElement>({ open, onCancel: () => setOpen(false) });
  if (!open) {
    const closed = children({ ref: confirmation.opener, onClick: () => setOpen(true) });
    return width ? <div className={width}>{closed}</div> : closed;
  }
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      // Done either way (a failure has said why in its toast): close, focus back on the opener.
      confirmation.cancel();
    }
  };
  return (
    <ConfirmPanel
      ref={confirmation.panel}
      question={question}
      details={details}
      confirmLabel={busy && busyLabel ? busyLabel : confirmLabel}
      tone={tone}
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={confirmation.cancel}
      className={`${className ?? 'w-full'} ${width ?? ''}`}
    />
  );
}
