import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { Hero, Section } from '../../components/marketing/hero';
import { contactDetails } from '../../content/contact';
import { ContactForm } from '../../features/contact/components/contact-form';
import { BANK_NAME } from '../../lib/settings';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Contact Us') }, { name: 'description', content: `Send ${BANK_NAME} a message. ${contactDetails.answerTime}` }];
}

export default function ContactPage() {
  return (
    <>
      <Hero
        eyebrow="We are here to help"
        title="Contact Us"
        summary={`Questions about an account, a loan or an investment? Send us a message. ${contactDetails.answerTime}`}
        cta="Sign in to your account"
        height={360}
      />
      <Section>
        <div className="grid gap-10 lg:grid-cols-[2fr_1fr]">
          <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <h2 className="mb-6 text-2xl font-bold text-slate-900">Send us a message</h2>
            <ContactForm />
          </div>
          <aside aria-labelledby="contact-details" className="space-y-5">
            <h2 id="contact-details" className="text-2xl font-bold text-slate-900">
              Other ways to reach us
            </h2>
            <ul className="space-y-4 text-slate-800">
              <li className="flex gap-3">
                <Mail aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-brand-700" />
                <a href={`mailto:${contactDetails.email}`} className="text-brand-800 underline">
                  {contactDetails.email}
                </a>
              </li>
              <li className="flex gap-3">
                <Phone aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-brand-700" />
                {contactDetails.phone}
              </li>
              <li className="flex gap-3">
                <Clock aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-brand-700" />
                {contactDetails.hours}
              </li>
              <li className="flex gap-3">
                <MapPin aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-brand-700" />
                {contactDetails.address}
              </li>
            </ul>
            <p className="rounded-lg bg-amber-50 p-4 text-sm text-slate-800">
              Never send passwords, one-time codes or full card numbers in a message. {BANK_NAME} will never ask you for them.
            </p>
          </aside>
        </div>
      </Section>
    </>
  );
}
