import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from './api';
import { focusOrigin, restoreFocus } from './focus';

/**
 * The one mutation helper: every change the web app asks of the API (a form, an Approve button,
 * a delete) goes through `useAction`, which owns the busy flag, the error (with the fields the
 * server named) and the toasts, and refreshes what is on screen afterwards.
 *
 * It is not TanStack Query's useMutation on purpose: the public pages (sign-in, sign-up, contact)
 * use it too, and they load neither the query cache nor the toaster (keeping their JavaScript
 * small). What only the signed-in areas have, toasts and the cache to refresh, comes from
 * ActionEffectsContext, which SignedInProviders fills; on a public page both are no-ops.
 */

export interface ActionError {
  message: string;
  /** Field path -> message, as the server's `fields` (or the form's own checks) name them. */
  fields?: Record<string, string>;
}

export interface ActionEffects {
  toast(tone: 'success' | 'error', message: string): void;
  /** Refetch the data on screen after a change; resolves when it is back. */
  refresh(): Promise<void>;
}

export const ActionEffectsContext = createContext<ActionEffects>({
  toast: () => undefined,
  refresh: async () => undefined,
});

export interface ActionOptions<Input, Result> {
  /** After success, before the toast and the refresh (navigate, reset a form...). */
  onSuccess?: (result: Result, input: Input) => void | Promise<void>;
  onError?: (error: unknown, input: Input) => void;
  /** The success toast: a fixed text, or one taken from the result (undefined: none). */
  successToast?: string | ((result: Result) => string | undefined);
  /** A toast on failure too: true shows the error's text, a string shows that text. */
  errorToast?: boolean | string;
  /** How a failure reads (default: the server's message, else 'An error occurred'). */
  errorText?: (error: unknown) => string;
  /** The error clears itself after this long (the spec's 3 s sign-in and sign-up banners). */
  errorMs?: number;
  /** Refetch what is on screen after success (default true), or after a failure too ('always'). */
  refresh?: boolean | 'always';
}

export interface Action<Input, Result> {
  /** Runs the call; resolves with its result, or undefined when it failed (the error is set). */
  run(input: Input): Promise<Result | undefined>;
  busy: boolean;
  error: ActionError | null;
  /** The last run succeeded: its result (until the next run or reset). */
  done: boolean;
  result: Result | undefined;
  /** Shows an error that did not come from the call (the form's own checks). */
  fail(error: ActionError): void;
  /** Forgets the last error and result. */
  reset(): void;
  /** A field changed: an error that named it no longer applies. */
  fieldChanged(name: string): void;
}

export function toActionError(error: unknown, text?: (error: unknown) => string): ActionError {
  const message = text ? text(error) : errorMessage(error);
  return error instanceof ApiError && error.fields ? { message, fields: error.fields } : { message };
}

export function useAction<Input = void, Result = unknown>(
  perform: (input: Input) => Promise<Result>,
  options: ActionOptions<Input, Result> = {},
): Action<Input, Result> {
  const effects = useContext(ActionEffectsContext);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [outcome, setOutcome] = useState<{ result: Result } | null>(null);
  // The latest callbacks, so a submit always sees the values of the render it came from.
  const latest = useRef({ perform, options, effects });
  latest.current = { perform, options, effects };
  const running = useRef(false);

  const errorMs = options.errorMs;
  useEffect(() => {
    if (!error || !errorMs) return;
    const timer = setTimeout(() => setError(null), errorMs);
    return () => clearTimeout(timer);
  }, [error, errorMs]);

  const run = useCallback(async (input: Input): Promise<Result | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    const { perform, options, effects } = latest.current;
    // The button pressed is disabled while the call runs, or leaves with its row: focus goes back
    // to it, or to what took its place, rather than fall to the page (lib/focus.ts).
    const origin = focusOrigin();
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      let result: Result;
      try {
        result = await perform(input);
      } catch (caught) {
        const failure = toActionError(caught, options.errorText);
        setError(failure);
        if (options.errorToast) effects.toast('error', typeof options.errorToast === 'string' ? options.errorToast : failure.message);
        options.onError?.(caught, input);
        if (options.refresh === 'always') await effects.refresh();
        return undefined;
      }
      setOutcome({ result });
      await options.onSuccess?.(result, input);
      const toast = typeof options.successToast === 'function' ? options.successToast(result) : options.successToast;
      if (toast) effects.toast('success', toast);
      if (options.refresh !== false) await effects.refresh();
      return result;
    } finally {
      running.current = false;
      setBusy(false);
      restoreFocus(origin);
    }
  }, []);

  const fail = useCallback((next: ActionError) => {
    setOutcome(null);
    setError(next);
  }, []);
  const reset = useCallback(() => {
    setOutcome(null);
    setError(null);
  }, []);
  const fieldChanged = useCallback((name: string) => setError((current) => (current?.fields && name in current.fields ? null : current)), []);

  return { run, busy, error, done: outcome !== null, result: outcome?.result, fail, reset, fieldChanged };
}
