import { useLoaderData } from 'react-router';
import { countryOptions } from '../../../shared/countries';
import { SignUpForm } from '../../features/auth/components/sign-up-form';
import { pageTitle } from '../../lib/title';

// Country names come from the ICU data of the build (Intl.DisplayNames): the list is computed once
// when the page is prerendered, so the browser hydrates exactly the same options.
export function loader() {
  return { countries: countryOptions() };
}

export function meta() {
  return [{ title: pageTitle('Create an Account') }];
}

export default function SignUpPage() {
  return (
    <div className="w-full max-w-3xl rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="mb-6 text-2xl font-bold text-slate-900">Create Your Account</h1>
      <SignUpForm countries={useLoaderData<typeof loader>().countries} />
    </div>
  );
}
