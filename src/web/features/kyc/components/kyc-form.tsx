import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import {
  KYC_DOCUMENT_TYPES,
  KYC_FAILURE_MESSAGE,
  KYC_FILE_FIELDS,
  KYC_REQUIRED_MESSAGE,
  KYC_SUCCESS_MESSAGE,
  ZKycTextFields,
} from '../../../../shared/contracts/kyc';
import { UPLOAD_BYTES_MAX } from '../../../../shared/limits';
import { Button } from '../../../components/ui/button';
import { fileInputClass, SelectField, TextField } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api';
import { contractResolver, useFormAction, fieldError } from '../../../lib/form';
import { paths } from '../../../paths';
import { submitKyc } from '../api';

const SIZE_MESSAGE = 'Upload error: Each file must be at most 5 MB.';

/** Spec rule: a rose border when the message contains 'error' or 'required', else green. */
export function statusTone(message: string): 'rose' | 'green' {
  const lower = message.toLowerCase();
  return lower.includes('error') || lower.includes('required') ? 'rose' : 'green';
}

type FileField = (typeof KYC_FILE_FIELDS)[number];
type KycValues = { documentType: string; dateOfBirth: string } & Record<FileField, File | null>;

// The text fields' contract of POST /user/verification, plus the three files (the server checks
// their bytes again).
const file = z
  .custom<File>((value) => typeof File !== 'undefined' && value instanceof File, KYC_REQUIRED_MESSAGE)
  .refine((value) => value.size <= UPLOAD_BYTES_MAX, SIZE_MESSAGE);
const ZKycForm = ZKycTextFields.extend({ passportImageFile: file, documentFile: file, proofOfAddressFile: file });

const empty: KycValues = { passportImageFile: null, documentType: '', documentFile: null, proofOfAddressFile: null, dateOfBirth: '' };

function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !file.type.startsWith('image/')) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

function FileInput({
  label,
  accept,
  file,
  onChange,
  hint,
  error,
  missing,
  invalid,
}: {
  label: string;
  accept: string;
  file: File | null;
  onChange: (file: File | null) => void;
  hint: string;
  /** The field's own message and state, as `fieldError` gives them (as the shared fields take them). */
  error?: string | undefined;
  missing?: boolean | undefined;
  invalid: boolean;
}) {
  const id = useId();
  const preview = useObjectUrl(file);
  const message = error || (missing ? `${label} is required` : undefined);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        aria-describedby={message ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-invalid={invalid || message ? true : undefined}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.files?.[0] ?? null)}
        className={fileInputClass}
      />
      {message ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {message}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate-700">
        {hint}
      </p>
      {preview ? <img src={preview} alt={`Preview of the ${label.toLowerCase()}`} className="mt-2 max-h-[12rem] rounded-md border border-slate-200" /> : null}
      {file && !preview ? <p className="mt-2 text-sm text-slate-800">Selected: {file.name}</p> : null}
    </div>
  );
}

/** 'Complete Your Account Setup': the five fields the spec lists, sent as one multipart form. */
export function KycForm() {
  const navigate = useNavigate();
  const [formKey, setFormKey] = useState(0);
  const form = useForm<KycValues>({
    resolver: contractResolver(ZKycForm, {
      required: { fields: ['passportImageFile', 'documentType', 'documentFile', 'proofOfAddressFile', 'dateOfBirth'], message: KYC_REQUIRED_MESSAGE },
    }),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    (values) => {
      const body = new FormData();
      body.append('documentType', values.documentType);
      body.append('dateOfBirth', values.dateOfBirth);
      for (const field of KYC_FILE_FIELDS) body.append(field, values[field] as File);
      return submitKyc(body);
    },
    {
      errorText: (caught) => {
        const text = caught instanceof ApiError && caught.status > 0 && caught.status < 500 ? caught.message : KYC_FAILURE_MESSAGE;
        return /error|required/i.test(text) ? text : `Submission error: ${text}`;
      },
      successToast: ({ message }) => message ?? KYC_SUCCESS_MESSAGE,
      // The form and previews are cleared, then the dashboard opens (spec section 4).
      onSuccess: ({ message }) => {
        form.reset(empty);
        setFormKey((key) => key + 1);
        navigate(paths.accountHome, { state: { notice: message ?? KYC_SUCCESS_MESSAGE } });
      },
    },
  );
  const message = action.error?.message ?? (action.done ? (action.result?.message ?? KYC_SUCCESS_MESSAGE) : '');
  const files = form.watch(KYC_FILE_FIELDS);
  const setFile = (field: FileField) => (value: File | null) => form.setValue(field, value, { shouldValidate: form.formState.isSubmitted });

  const tone = statusTone(message);
  return (
    <form key={formKey} onSubmit={action.submit} noValidate className="space-y-5">
      {message ? (
        <div
          role={tone === 'rose' ? 'alert' : 'status'}
          className={`rounded-md border-2 px-4 py-3 text-sm ${tone === 'rose' ? 'border-rose-500 bg-rose-50 text-rose-900' : 'border-green-500 bg-green-50 text-green-900'}`}
        >
          {message}
        </div>
      ) : null}
      <FileInput
        label="Passport image"
        accept="image/jpeg,image/png,image/webp"
        file={files[0]}
        onChange={setFile('passportImageFile')}
        {...fieldError(errors.passportImageFile)}
        hint="A photo of your passport page (JPEG, PNG or WebP, at most 5 MB)."
      />
      <SelectField label="Document type" required {...fieldError(errors.documentType)} {...form.register('documentType')}>
        <option value="">Select a document type</option>
        {KYC_DOCUMENT_TYPES.map((type) => (
          <option key={type.value} value={type.value}>
            {type.label}
          </option>
        ))}
      </SelectField>
      <FileInput
        label="Document file"
        accept="image/jpeg,image/png,image/webp,application/pdf"
        file={files[1]}
        onChange={setFile('documentFile')}
        {...fieldError(errors.documentFile)}
        hint="The document you chose above: an image or a PDF, at most 5 MB."
      />
      <FileInput
        label="Proof of address"
        accept="image/jpeg,image/png,image/webp,application/pdf"
        file={files[2]}
        onChange={setFile('proofOfAddressFile')}
        {...fieldError(errors.proofOfAddressFile)}
        hint="A recent utility bill or bank statement: an image or a PDF, at most 5 MB."
      />
      <TextField label="Date of birth" type="date" required {...fieldError(errors.dateOfBirth)} {...form.register('dateOfBirth')} />
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Submitting...' : 'Submit KYC'}
      </Button>
    </form>
  );
}
