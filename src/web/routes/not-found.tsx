import { SiteFooter } from '../components/layout/site-footer';
import { SiteHeader } from '../components/layout/site-header';
import { pageTitle } from '../lib/title';

export function meta() {
  return [{ title: pageTitle('Not Found') }];
}

// Unknown paths are answered with the SPA fallback page, which shows the root's loading state:
// a client loader makes the first client render match it before the page appears.
export function clientLoader() {
  return null;
}

export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto min-h-[50vh] max-w-3xl px-4 py-24 text-center">
        <h1 className="text-4xl font-bold text-slate-900">Not Found</h1>
      </main>
      <SiteFooter />
    </>
  );
}
