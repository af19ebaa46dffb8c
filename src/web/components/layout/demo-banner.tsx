import { DEMO_MODE } from '../../lib/settings';

/**
 * "Demo bank: no real money" on every page while DEMO_MODE is on (the default). The build bakes
 * in its DEMO_MODE; the running server's own DEMO_MODE decides through /runtime-settings.css
 * (src/server/plugins/web.ts), so a build made in demo mode never shows the notice on a bank
 * started with DEMO_MODE=false. The element is always there (hidden when the build is not a
 * demo), so that style sheet needs no markup of its own.
 */
export function DemoBanner() {
  return (
    <div className="demo-banner relative z-[60] bg-amber-300 px-4 py-1 text-center text-sm font-semibold text-slate-900" role="note" hidden={!DEMO_MODE}>
      Demo bank: no real money
    </div>
  );
}
