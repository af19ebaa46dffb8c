import { useState, type FormEvent } from 'react';
import { CONTACT_FAILED_MESSAGE, CONTACT_HONEYPOT_FIELD, CONTACT_SENT_MESSAGE } from '../../../shared/contracts/contact-messages';
import { EMAIL_LENGTH_MAX, MESSAGE_LENGTH_MAX, NAME_LENGTH_MAX } from '../../../shared/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/form';
import { ApiError, api } from '../../lib/api';

const empty = { name: '', email: '', subject: '', message: '' };
type Fields = typeof empty;

// The browser checks required fields and the email format (spec section 5); the server checks
// again with the shared schema. zod stays out of this page to keep the public bundle small.
export function ContactForm() {
  const [fields, setFields] = useState<Fields>(empty);
  const [trap, setTrap] = useState('');
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent' | 'error'>('idle');
  const [detail, setDetail] = useState<string | null>(null);

  const set = (key: keyof Fields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [key]: event.target.value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus('sending');
    setDetail(null);
    try {
      await api.post('/contacts', { ...fields, [CONTACT_HONEYPOT_FIELD]: trap }, { redirectOn401: false });
      setFields(empty);
      setStatus('sent');
    } catch (error) {
      setStatus('error');
      if (error instanceof ApiError && error.status === 400) setDetail(error.message);
      if (error instanceof ApiError && error.status === 429) setDetail(error.message);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-5" aria-describedby="contact-status">
      <div id="contact-status">
        {status === 'sent' ? <Alert tone="success">{CONTACT_SENT_MESSAGE}</Alert> : null}
        {status === 'error' ? (
          <Alert tone="error">
            {CONTACT_FAILED_MESSAGE}
            {detail ? <span className="mt-1 block">{detail}</span> : null}
          </Alert>
        ) : null}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Name" name="name" autoComplete="name" required maxLength={NAME_LENGTH_MAX} value={fields.name} onChange={set('name')} />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={EMAIL_LENGTH_MAX}
          value={fields.email}
          onChange={set('email')}
        />
      </div>
      <TextField label="Subject" name="subject" required maxLength={250} value={fields.subject} onChange={set('subject')} />
      <TextAreaField label="Message" name="message" required rows={6} maxLength={MESSAGE_LENGTH_MAX} value={fields.message} onChange={set('message')} />
      {/* A field people never see: bots that fill every input give themselves away. */}
      <div aria-hidden="true" style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}>
        <label htmlFor="contact-website">Leave this field empty</label>
        <input
          id="contact-website"
          name={CONTACT_HONEYPOT_FIELD}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={trap}
          onChange={(event) => setTrap(event.target.value)}
        />
      </div>
      <Button type="submit" disabled={status === 'sending'} className="px-6 py-3 text-base">
        {status === 'sending' ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
