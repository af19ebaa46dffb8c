// When the session idles out, as the server last said (every answer to a signed-in call carries
// the seconds left in SESSION_IDLE_SECONDS_HEADER). The API client feeds it; the signed-in frame's
// idle warning reads it. Kept as a local time (Date.now() + seconds), so clocks need not agree.
import { SESSION_IDLE_SECONDS_HEADER } from '../../shared/limits';

let deadlineMs: number | null = null;
const listeners = new Set<() => void>();

/** Records the time left that an answer states (an answer without the header changes nothing). */
export function noteSessionIdle(headers: Headers): void {
  const value = headers.get(SESSION_IDLE_SECONDS_HEADER);
  if (value === null) return;
  const seconds = Number(value);
  if (!Number.isFinite(seconds)) return;
  deadlineMs = Date.now() + seconds * 1000;
  for (const listener of listeners) listener();
}

/** The local time (ms) at which the session idles out, or null before any signed-in answer. */
export const sessionIdleDeadline = (): number | null => deadlineMs;

export function subscribeSessionIdle(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
