// Whether the bank is reachable right now, as the last API answers said: lib/api.ts reports, and
// the "we are having trouble" notice (components/layout/service-notice.tsx) shows it. No React
// here, so the API client stays free of it.

/** Why the last call could not be served: the bank answered 502/503/504, or no answer came at all. */
export type ServiceTrouble = 'unavailable' | 'network';

/** While in trouble, how often the bank's readiness is asked, so the notice goes away by itself. */
export const RECHECK_MS = { min: 2_000, max: 30_000 };

let current: ServiceTrouble | null = null;
let recheck: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(next: ServiceTrouble | null): void {
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

export function serviceTrouble(): ServiceTrouble | null {
  return current;
}

export function subscribeToServiceTrouble(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An answer came and it was not one of trouble: whatever was wrong is over. */
export function reportServiceOk(): void {
  clearTimeout(recheck);
  recheck = undefined;
  set(null);
}

/**
 * A call met trouble. Until another call succeeds, the bank's readiness (`/api/health/ready`,
 * 200 once its database answers) is asked again after the Retry-After it sent (or a few seconds),
 * so the notice clears without the customer having to act.
 */
export function reportServiceTrouble(trouble: ServiceTrouble, retryAfterSeconds?: number): void {
  set(trouble);
  if (typeof window === 'undefined' || recheck !== undefined) return;
  const delay = Math.min(RECHECK_MS.max, Math.max(RECHECK_MS.min, (retryAfterSeconds ?? 0) * 1000));
  recheck = setTimeout(() => {
    recheck = undefined;
    fetch('/api/health/ready', { credentials: 'same-origin', headers: { Accept: 'application/json' } }).then(
      (response) => (response.ok ? reportServiceOk() : reportServiceTrouble(troubleOf(response.status) ?? trouble, retryAfterOf(response))),
      () => reportServiceTrouble('network'),
    );
  }, delay);
}

/** The statuses that mean "the bank cannot serve right now", not "this request was wrong". */
export function troubleOf(status: number): ServiceTrouble | null {
  return status === 502 || status === 503 || status === 504 ? 'unavailable' : null;
}

export function retryAfterOf(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
