import { DEMO_MODE } from '../../lib/settings';

/** Shown on every page while DEMO_MODE is on (the default). */
export function DemoBanner() {
  if (!DEMO_MODE) return null;
  return (
    <div className="relative z-[60] bg-amber-300 px-4 py-1 text-center text-sm font-semibold text-slate-900" role="note">
      Demo bank: no real money
    </div>
  );
}
