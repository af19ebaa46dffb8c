import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigation } from 'react-router';

// A prerendered page carries inline only the CSS rules its own HTML and scripts can use; the whole
// stylesheet is linked `disabled`, so it is neither downloaded nor parsed while the page loads
// (scripts/optimize-html.ts). Once the page is idle it is fetched into the cache; it is switched on
// as the first client-side navigation starts, when another page's classes may be needed.

const deferredStylesheets = () => [...document.querySelectorAll<HTMLLinkElement>('link[data-deferred-css]')];

/** Switches the deferred stylesheet(s) on; idempotent. */
export function applyDeferredStylesheets(): void {
  for (const link of deferredStylesheets()) if (link.disabled) link.disabled = false;
}

/** Fetches the deferred stylesheet(s) into the HTTP cache without parsing them. */
function prefetchDeferredStylesheets(): void {
  for (const link of deferredStylesheets()) {
    if (!link.disabled || document.querySelector(`link[rel="prefetch"][href="${link.getAttribute('href')}"]`)) continue;
    const prefetch = document.createElement('link');
    prefetch.rel = 'prefetch';
    prefetch.href = link.href;
    document.head.appendChild(prefetch);
  }
}

/** Prefetches the whole stylesheet once the page is idle and switches it on at the first client-side navigation. */
export function useDeferredStylesheets(): void {
  const { pathname } = useLocation();
  const navigating = useNavigation().state !== 'idle';
  const firstPathname = useRef(pathname);
  useEffect(() => {
    if (deferredStylesheets().length === 0) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(prefetchDeferredStylesheets, { timeout: 5000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(prefetchDeferredStylesheets, 2000);
    return () => clearTimeout(handle);
  }, []);
  useLayoutEffect(() => {
    if (navigating || pathname !== firstPathname.current) applyDeferredStylesheets();
  }, [navigating, pathname]);
}
