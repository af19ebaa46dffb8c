import { useForm } from 'react-hook-form';
import { CONTACT_FAILED_MESSAGE, CONTACT_HONEYPOT_FIELD, CONTACT_SENT_MESSAGE } from '../../../../shared/contracts/contact-messages';
import { MESSAGE_LENGTH_MAX, NAME_LENGTH_MAX, TEXT_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmailField, TextAreaField, TextField } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api';
import { contractResolver, lazyContract, useFormAction, fieldError } from '../../../lib/form';
import { sendContactMessage } from '../api';

interface ContactValues {
  name: string;
  email: string;
  subject: string;
  message: string;
  [CONTACT_HONEYPOT_FIELD]: string;
}

const empty: ContactValues = { name: '', email: '', subject: '', message: '', [CONTACT_HONEYPOT_FIELD]: '' };

// The contract (and zod) loads at the form's first focus: the contact page's first download stays small.
const contactContract = lazyContract(() => import('../../../../shared/contracts/contacts').then((contract) => contract.ZContactRequest));

// The browser checks the required fields first (spec section 5: an empty form sends nothing);
// then the shared contract, as the server will.
export function ContactForm() {
  const form = useForm<ContactValues>({ resolver: contractResolver(contactContract), defaultValues: empty });
  const { errors } = form.formState;
  const action = useFormAction(form, sendContactMessage, {
    refresh: false,
    // A refusal the visitor can act on (a field, too many messages) says why under the spec's message.
    errorText: (error) => (error instanceof ApiError && (error.status === 400 || error.status === 429) ? error.message : ''),
    onSuccess: () => form.reset(empty),
  });

  return (
    <form onSubmit={action.submit} onFocus={contactContract.preload} className="space-y-5" aria-describedby="contact-status">
      <div id="contact-status">
        {action.done ? <Alert tone="success">{CONTACT_SENT_MESSAGE}</Alert> : null}
        {action.error ? (
          <Alert tone="error">
            {CONTACT_FAILED_MESSAGE}
            {action.error.message ? <span className="mt-1 block">{action.error.message}</span> : null}
          </Alert>
        ) : null}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Name" autoComplete="name" required maxLength={NAME_LENGTH_MAX} {...fieldError(errors.name)} {...form.register('name')} />
        <EmailField autoComplete="email" {...fieldError(errors.email)} {...form.register('email')} />
      </div>
      <TextField label="Subject" required maxLength={TEXT_LENGTH_MAX / 2} {...fieldError(errors.subject)} {...form.register('subject')} />
      <TextAreaField label="Message" required rows={6} maxLength={MESSAGE_LENGTH_MAX} {...fieldError(errors.message)} {...form.register('message')} />
      {/* A field people never see: bots that fill every input give themselves away. */}
      <div aria-hidden="true" style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}>
        <label htmlFor="contact-website">Leave this field empty</label>
        <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...form.register(CONTACT_HONEYPOT_FIELD)} />
      </div>
      <Button type="submit" disabled={action.busy} className="px-6 py-3 text-base">
        {action.busy ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
