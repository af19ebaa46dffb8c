import { Mail, MessageCircle, MessagesSquare } from 'lucide-react';
import { Link } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card';
import { contactDetails } from '../../content/contact';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Support') }];
}

export default function SupportPage() {
  return (
    <div>
      <PageTitle subtitle="We are here to help with your account, transfers, cards and loans.">Support</PageTitle>
      <div className="grid gap-4 md:grid-cols-3">
        <Card>
          <Mail aria-hidden="true" className="h-7 w-7 text-brand-700" />
          <h2 className="mt-3 font-semibold text-slate-900">Email us</h2>
          <p className="mt-1 text-sm text-slate-700">{contactDetails.answerTime}</p>
          <a href={`mailto:${contactDetails.email}`} className="mt-3 inline-block font-semibold text-brand-800 underline">
            {contactDetails.email}
          </a>
        </Card>
        <Card>
          <MessagesSquare aria-hidden="true" className="h-7 w-7 text-brand-700" />
          <h2 className="mt-3 font-semibold text-slate-900">Contact page</h2>
          <p className="mt-1 text-sm text-slate-700">Send us a message with the contact form.</p>
          <Link to={paths.contact} className="mt-3 inline-block font-semibold text-brand-800 underline">
            Go to the contact page
          </Link>
        </Card>
        <Card>
          <MessageCircle aria-hidden="true" className="h-7 w-7 text-brand-700" />
          <h2 className="mt-3 font-semibold text-slate-900">24/7 live chat</h2>
          <p className="mt-1 text-sm text-slate-700">Live chat is not connected in this installation; please email us or use the contact page.</p>
        </Card>
      </div>
      <p className="mt-6 text-sm text-slate-700">
        We will never ask for your password or a transfer code. Phone: {contactDetails.phone} ({contactDetails.hours}).
      </p>
    </div>
  );
}
