import { useEffect, useRef, type ReactNode } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, useLocation, useRouteError } from 'react-router';
import './app.css';
import { DemoBanner } from './components/layout/demo-banner';
import { ServiceNotice } from './components/layout/service-notice';
import { useDeferredStylesheets } from './lib/deferred-css';
import { BANK_NAME } from './lib/settings';

export function meta() {
  return [{ title: BANK_NAME }];
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content={`${BANK_NAME}: personal, business and online banking.`} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[100] focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-brand-900"
        >
          Skip to content
        </a>
        <DemoBanner />
        <ServiceNotice />
        {children}
        <Scripts />
      </body>
    </html>
  );
}

/** The view scrolls to the top on every route change (spec section 2). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/**
 * After a navigation that took the focused element away (a form's button whose answer opens
 * another page, a link inside the page that was replaced), focus moves to the new page's heading, so
 * a keyboard or screen reader user starts there instead of at the top of the document. Focus that
 * is still on the page (the menu's link, a field the page focused itself) stays where it is.
 */
function FocusOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const target = document.querySelector<HTMLElement>('#main h1') ?? document.querySelector<HTMLElement>('#main');
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}

/**
 * Marks the document once React has taken over the prerendered HTML. Browser tests wait for it
 * before typing into a prerendered form: text typed earlier belongs to the HTML, not to React's state.
 */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

export default function App() {
  useDeferredStylesheets();
  return (
    <>
      <HydrationMark />
      <ScrollToTop />
      <FocusOnNavigation />
      <Outlet />
    </>
  );
}

export function HydrateFallback() {
  return (
    <main id="main" className="flex min-h-[60vh] items-center justify-center" data-hydrate-fallback="">
      <p className="text-slate-700" role="status">
        Loading...
      </p>
    </main>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{notFound ? 'Not Found' : 'Something went wrong'}</h1>
      {!notFound ? <p className="mt-4 text-slate-700">Please reload the page. If this keeps happening, contact support.</p> : null}
      <p className="mt-6">
        <a className="text-brand-800 underline" href="/">
          Go to the home page
        </a>
      </p>
    </main>
  );
}
