import { PageLink } from '../../components/ui/page-link';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Account verification') }];
}

/** Where the 'Verify Account' prompts lead: what verification needs, then the signed-in KYC form. */
export default function AccountVerification() {
  return (
    <div className="w-full max-w-lg rounded-xl bg-white p-8 shadow">
      <h1 className="text-2xl font-bold text-slate-900">Verify your account</h1>
      <p className="mt-2 text-slate-700">Complete identity verification to use every feature of your account. Have these ready:</p>
      <ul className="mt-4 list-disc space-y-1 pl-5 text-slate-800">
        <li>a photo of your passport page</li>
        <li>your passport, national ID or driver&apos;s license (image or PDF)</li>
        <li>a recent proof of address, such as a utility bill (image or PDF)</li>
        <li>your date of birth</li>
      </ul>
      <p className="mt-4 text-sm text-slate-700">Each file may be at most 5 MB. Our staff review documents in 1-3 business days and email you the result.</p>
      <PageLink
        className="mt-6 inline-block rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2"
        to="/account/kyc-verification"
      >
        Start verification
      </PageLink>
    </div>
  );
}
