import { useSyncExternalStore } from 'react';
import { serviceTrouble, subscribeToServiceTrouble, type ServiceTrouble } from '../../lib/service-status';

export const SERVICE_NOTICE_TEXT: Record<ServiceTrouble, string> = {
  unavailable: 'We are having trouble on our side right now. Please try again in a moment.',
  network: 'We could not reach the bank. Check your connection and try again.',
};

/** The notice itself, for a given trouble (none: nothing). */
export function ServiceNoticeMessage({ trouble }: { trouble: ServiceTrouble | null }) {
  if (!trouble) return null;
  return (
    <div className="relative z-[60] bg-red-700 px-4 py-2 text-center text-sm font-semibold text-white" role="alert" data-testid="service-notice">
      {SERVICE_NOTICE_TEXT[trouble]}
    </div>
  );
}

/**
 * "We are having trouble": on every page while the bank answers 503 (its database is away) or does
 * not answer at all, so a page whose data did not come does not fail silently. It goes away by
 * itself once a call succeeds again (lib/service-status.ts keeps asking while it shows).
 */
export function ServiceNotice() {
  // Prerendered and server-rendered HTML never has it: it only reports what this browser saw.
  const trouble = useSyncExternalStore(subscribeToServiceTrouble, serviceTrouble, () => null);
  return <ServiceNoticeMessage trouble={trouble} />;
}
