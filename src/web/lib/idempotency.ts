import { useRef } from 'react';
import { ApiError, newIdempotencyKey } from './api';

/**
 * A fresh Idempotency-Key per submit, and the same key when the very same submit is retried after
 * a network failure or a server error (the first attempt may have posted: the server replays it).
 */
export function useIdempotencyKey() {
  const last = useRef<{ fingerprint: string; key: string; retryable: boolean } | null>(null);
  return {
    keyFor(body: unknown): string {
      const fingerprint = JSON.stringify(body);
      if (last.current && last.current.retryable && last.current.fingerprint === fingerprint) return last.current.key;
      last.current = { fingerprint, key: newIdempotencyKey(), retryable: false };
      return last.current.key;
    },
    settle(error?: unknown) {
      if (!last.current) return;
      last.current.retryable = error instanceof ApiError ? error.status === 0 || error.status >= 500 : error !== undefined;
    },
  };
}
