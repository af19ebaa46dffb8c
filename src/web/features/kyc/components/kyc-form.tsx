import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { KYC_DOCUMENT_TYPES, KYC_FAILURE_MESSAGE, KYC_REQUIRED_MESSAGE, KYC_SUCCESS_MESSAGE } from '../../../../shared/contracts/kyc';
import { UPLOAD_BYTES_MAX } from '../../../../shared/limits';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api';
import { rememberUpdatedUser } from '../../../lib/current-user';
import { submitKyc } from '../api';
import { paths } from '../../../paths';

const SIZE_MESSAGE = 'Each file must be at most 5 MB.';

/** Spec rule: a rose border when the message contains 'error' or 'required', else green. */
export function statusTone(message: string): 'rose' | 'green' {
  const lower = message.toLowerCase();
  return lower.includes('error') || lower.includes('required') ? 'rose' : 'green';
}

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
  name,
  accept,
  file,
  onChange,
  hint,
}: {
  label: string;
  name: string;
  accept: string;
  file: File | null;
  onChange: (file: File | null) => void;
  hint: string;
}) {
  const id = useId();
  const preview = useObjectUrl(file);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-describedby={`${id}-hint`}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.files?.[0] ?? null)}
        className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-brand-800"
      />
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
  const [passportImageFile, setPassport] = useState<File | null>(null);
  const [documentType, setDocumentType] = useState('');
  const [documentFile, setDocument] = useState<File | null>(null);
  const [proofOfAddressFile, setProof] = useState<File | null>(null);
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [message, setMessage] = useState('');
  const [formKey, setFormKey] = useState(0);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!passportImageFile || !documentType || !documentFile || !proofOfAddressFile || !dateOfBirth) {
      setMessage(KYC_REQUIRED_MESSAGE);
      return;
    }
    if ([passportImageFile, documentFile, proofOfAddressFile].some((file) => file.size > UPLOAD_BYTES_MAX)) {
      setMessage(`Upload error: ${SIZE_MESSAGE}`);
      return;
    }
    const form = new FormData();
    form.append('documentType', documentType);
    form.append('dateOfBirth', dateOfBirth);
    form.append('passportImageFile', passportImageFile);
    form.append('documentFile', documentFile);
    form.append('proofOfAddressFile', proofOfAddressFile);
    setSubmitting(true);
    setMessage('');
    try {
      const { user, message: serverMessage } = await submitKyc(form);
      rememberUpdatedUser(user);
      setMessage(serverMessage ?? KYC_SUCCESS_MESSAGE);
      // The form and previews are cleared, then the dashboard opens (spec section 4).
      setPassport(null);
      setDocument(null);
      setProof(null);
      setDocumentType('');
      setDateOfBirth('');
      setFormKey((key) => key + 1);
      toast.success(serverMessage ?? KYC_SUCCESS_MESSAGE);
      navigate(paths.accountHome, { state: { notice: serverMessage ?? KYC_SUCCESS_MESSAGE } });
    } catch (caught) {
      const text = caught instanceof ApiError && caught.status > 0 && caught.status < 500 ? caught.message : KYC_FAILURE_MESSAGE;
      setMessage(/error|required/i.test(text) ? text : `Submission error: ${text}`);
    } finally {
      setSubmitting(false);
    }
  }

  const tone = statusTone(message);
  return (
    <form key={formKey} onSubmit={onSubmit} noValidate className="space-y-5">
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
        name="passportImageFile"
        accept="image/jpeg,image/png,image/webp"
        file={passportImageFile}
        onChange={setPassport}
        hint="A photo of your passport page (JPEG, PNG or WebP, at most 5 MB)."
      />
      <SelectField label="Document type" name="documentType" value={documentType} onChange={(event) => setDocumentType(event.target.value)} required>
        <option value="">Select a document type</option>
        {KYC_DOCUMENT_TYPES.map((type) => (
          <option key={type.value} value={type.value}>
            {type.label}
          </option>
        ))}
      </SelectField>
      <FileInput
        label="Document file"
        name="documentFile"
        accept="image/jpeg,image/png,image/webp,application/pdf"
        file={documentFile}
        onChange={setDocument}
        hint="The document you chose above: an image or a PDF, at most 5 MB."
      />
      <FileInput
        label="Proof of address"
        name="proofOfAddressFile"
        accept="image/jpeg,image/png,image/webp,application/pdf"
        file={proofOfAddressFile}
        onChange={setProof}
        hint="A recent utility bill or bank statement: an image or a PDF, at most 5 MB."
      />
      <TextField label="Date of birth" type="date" name="dateOfBirth" value={dateOfBirth} onChange={(event) => setDateOfBirth(event.target.value)} required />
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Submitting...' : 'Submit KYC'}
      </Button>
    </form>
  );
}
