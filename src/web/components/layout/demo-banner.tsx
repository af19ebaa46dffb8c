import { DEMO_MODE } from '../../lib/settings';

/**
 * "Demo bank: no real money" on every page while DEMO_MODE is on (the default). The build bakes
 * in its DEMO_MODE; when the running bank's differs (a build made in demo mode served with
 * DEMO_MODE=false), the server switches this element's `hidden` attribute in each page it sends
 * (src/server/plugins/web.ts), so the element is always in the HTML, hidden when not a demo. A
 * labelled landmark of its own, as every piece of a page is (axe's "region").
 */
export function DemoBanner() {
  return (
    <aside
      className="demo-banner relative z-[60] bg-amber-300 px-4 py-1 text-center text-sm font-semibold text-slate-900"
      aria-label="Demo"
      hidden={!DEMO_MODE}
    >
      Demo bank: no real money
    </aside>
  );
}
