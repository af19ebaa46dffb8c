import { toNestErrors } from '@hookform/resolvers';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, type BaseSyntheticEvent } from 'react';
import { get, type FieldError, type FieldErrors, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from './api';
import { useAction, type Action, type ActionOptions } from './action';

// Forms validate with the same zod contract the API route declares as its schema (the server
// validates again): react-hook-form with the contract as resolver. The values the user typed are
// what is sent (`raw`): where the contract turns input into something else (dollars into cents),
// the server does that parsing itself.

const isBlank = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (typeof FileList !== 'undefined' && value instanceof FileList && value.length === 0);

export interface ContractResolverOptions<Values extends FieldValues> {
  /** The contract's input built from the form's values, when the two differ (default: the values). */
  toInput?: (values: Values) => unknown;
  /** A contract path -> the form field showing its error, where they differ. */
  fieldOf?: Record<string, Path<Values>>;
  /**
   * The specification's "fill in everything" message: any of these fields blank gives it (on that
   * field) before the contract runs, as the forms have always answered an empty form.
   */
  required?: { fields: Array<Path<Values>>; message: string };
  /** Checks the contract cannot make (a ticked box, the balance on screen), told with its problems: field -> message. */
  check?: (values: Values) => Partial<Record<Path<Values>, string>> | null;
  /**
   * The form's labels for the API parameter names the contract's messages use ("amountMin must not
   * be more than amountMax"): the form's messages name the fields as the user sees them.
   */
  labels?: FieldLabels;
}

/** API parameter name -> the label of the form field that holds it. */
export type FieldLabels = Record<string, string>;

/**
 * A contract's message in the form's words: "amountMax must not be below amountMin (amountMin)" as
 * "Amount to must not be below Amount from". The API keeps its messages (its clients rely on them);
 * only the form rewrites them. A trailing "(name)" (the other field of a range) is dropped. Built
 * once per form; without labels, messages stay as they are. A filter page whose address was edited
 * by hand reads the API's refusal of it through the same words (`inFormWords(LABELS)(message)`).
 */
export function inFormWords(labels: FieldLabels | undefined): (message: string) => string {
  const names = Object.keys(labels ?? {});
  if (!labels || names.length === 0) return (message) => message;
  const parameter = new RegExp(`\\b(${names.join('|')})\\b`, 'g');
  return (message) => message.replace(/ \((\w+)\)$/, '').replace(parameter, (name) => labels[name] ?? name);
}

/**
 * A contract fetched on demand. The public pages' forms use these, so zod (and what a contract
 * needs with it, such as the phone-number rules) is not part of the page's first download: it
 * loads at the form's first focus (`preload`, as the form's onFocus) or, at the latest, when the
 * form is first checked. Its own chunk: `lazyContract(() => import('...contracts/auth').then((m) => m.ZSignInRequest))`.
 */
export interface LazyContract {
  /** Starts fetching the contract (once); errors wait for `load`. */
  preload: () => void;
  load: () => Promise<z.ZodType>;
}

export function lazyContract(importContract: () => Promise<z.ZodType>): LazyContract {
  let loading: Promise<z.ZodType> | undefined;
  const load = () =>
    (loading ??= importContract().catch((error: unknown) => {
      // A failed download (the network blinked) is tried again at the next check.
      loading = undefined;
      throw error;
    }));
  return { load, preload: () => void load().catch(() => undefined) };
}

const isLazy = (contract: z.ZodType | LazyContract): contract is LazyContract => typeof (contract as LazyContract).load === 'function';

/**
 * react-hook-form's resolver for a shared contract (zodResolver, raw values), with the options
 * above. A lazy contract that cannot be fetched leaves the check to the server, which validates
 * every request with the same contract and names the fields at fault.
 */
export function contractResolver<Values extends FieldValues>(
  contract: z.ZodType | LazyContract,
  options: ContractResolverOptions<Values> = {},
): Resolver<Values> {
  let validate: Resolver<FieldValues> | undefined;
  const validator = async (): Promise<Resolver<FieldValues> | undefined> => {
    if (validate) return validate;
    let schema: z.ZodType;
    try {
      schema = isLazy(contract) ? await contract.load() : contract;
    } catch {
      return undefined;
    }
    validate = zodResolver(schema as never, undefined, { raw: true }) as unknown as Resolver<FieldValues>;
    return validate;
  };
  const formWords = inFormWords(options.labels);
  return async (values, context, resolverOptions) => {
    // A blank field of `required` gives the form's message first (the alert's words), and the
    // contract still checks the rest: one submit names everything to fix, blank or wrong.
    const missing = options.required?.fields.filter((field) => isBlank(get(values, field))) ?? [];
    const errors: Record<string, FieldError> = Object.fromEntries(
      missing.map((field) => [field, { type: 'required', message: options.required?.message } as FieldError]),
    );
    const input = options.toInput ? options.toInput(values) : values;
    const check = await validator();
    const result = check ? await check(input as FieldValues, context, resolverOptions as never) : { values: input, errors: {} };
    // The form's own checks are told together with the contract's problems (a field the contract
    // already faulted keeps the contract's message), so one submit names everything to fix.
    const problems = Object.entries(options.check?.(values) ?? {}).filter(([, message]) => message);
    if (missing.length === 0 && Object.keys(result.errors).length === 0 && problems.length === 0) return { values, errors: {} };
    for (const [path, error] of Object.entries(flattenErrors(result.errors))) {
      if ((options.fieldOf?.[path] ?? path) in errors) continue;
      if (typeof error.message === 'string') error.message = formWords(error.message);
      const field = options.fieldOf?.[path] ?? path;
      // A blank field the contract refuses is missing, whatever words the contract uses for the
      // whole form ("Please fill in all fields"): the field says so in its own label's words (fieldError).
      errors[field] = isBlank(get(values, field)) ? { ...error, type: 'required' } : error;
    }
    for (const [field, message] of problems) errors[field] ??= { type: 'check', message: String(message) };
    return { values: {}, errors: toNestErrors(errors, resolverOptions) as FieldErrors<Values> };
  };
}

/** Every error of a form by field path, in the order the contract reported them. */
export function flattenErrors(errors: FieldErrors, prefix = ''): Record<string, FieldError> {
  const flat: Record<string, FieldError> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object' || key === 'ref') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof (value as FieldError).message === 'string') flat[path] = value as FieldError;
    else Object.assign(flat, flattenErrors(value as FieldErrors, path));
  }
  return flat;
}

const messagesOf = (errors: FieldErrors) =>
  Object.fromEntries(Object.entries(flattenErrors(errors)).map(([path, error]) => [path, String(error.message ?? '')]));

export interface FormAction<Values extends FieldValues, Result> extends Action<Values, Result> {
  /** The form's onSubmit: validates with the contract, then runs the call. */
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
}

/**
 * A form's submit through useAction: a failed check shows the first message (the form's alert)
 * and marks the fields; a refusal from the server shows its message and marks the fields it
 * names; either clears as soon as a field it named changes.
 */
export function useFormAction<Values extends FieldValues, Result>(
  form: UseFormReturn<Values>,
  perform: (values: Values) => Promise<Result>,
  options: ActionOptions<Values, Result> = {},
): FormAction<Values, Result> {
  const action = useAction(perform, {
    ...options,
    onError: (error, values) => {
      if (error instanceof ApiError && error.fields) {
        for (const [path, message] of Object.entries(error.fields)) {
          if (get(values, path) !== undefined) form.setError(path as Path<Values>, { type: 'server', message });
        }
      }
      options.onError?.(error, values);
    },
  });
  const { fieldChanged, fail, run } = action;
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name) fieldChanged(name);
    });
    return () => subscription.unsubscribe();
  }, [form, fieldChanged]);
  const submit = form.handleSubmit(
    async (values) => {
      await run(values);
    },
    (errors) => {
      const fields = messagesOf(errors);
      fail({ message: Object.values(fields)[0] ?? 'Please check the form', fields });
    },
  );
  return { ...action, submit };
}

/**
 * A field's props for its message: the field is marked as at fault and described by its own
 * message, shown under it (the shared fields give it an id and point `aria-describedby` at it), as
 * well as the form's alert, which says what the form as a whole refused. A field left blank where
 * the form asks for everything (`required` above, whose message is the form's, such as "All fields
 * are required") is described as missing, in its own label's words.
 */
export function fieldError(error: FieldError | undefined): { error?: string; missing?: boolean; invalid: boolean } {
  if (!error) return { invalid: false };
  if (error.type === 'required') return { missing: true, invalid: true };
  return { ...(error.message ? { error: String(error.message) } : {}), invalid: true };
}
