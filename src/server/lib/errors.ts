/**
 * Domain errors. Services and the ledger throw these; one handler (plugins/errors.ts) maps each
 * code to an HTTP status. Nothing here knows HTTP beyond that table.
 */
export type ErrorCode =
  | 'bad_request'
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  /** A staff member's session that must enrol a second factor before anything else (403). */
  | 'second_factor_required'
  | 'not_found'
  | 'conflict'
  | 'idempotency_conflict'
  | 'payload_too_large'
  | 'unsupported_media'
  | 'rate_limited'
  | 'locked'
  | 'insufficient_funds'
  | 'unavailable'
  | 'internal';

/** A failure the client can act on: the message is shown to the user as is. */
export class AppError extends Error {
  /** Seconds the client should wait before trying again (answered as Retry-After): throttled answers carry it. */
  public readonly retryAfterSeconds?: number;

  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly fields?: Record<string, string>,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
  }
}

/** A throttled call: 429 with Retry-After (whole seconds, at least 1). */
export const rateLimited = (message: string, retryAfterSeconds: number) => new AppError('rate_limited', message, undefined, { retryAfterSeconds });

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError('validation', message, fields);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('forbidden', message);
export const unauthorized = (message = 'Please sign in') => new AppError('unauthorized', message);
/** More work waiting than the bank takes on (a full queue): 503 with Retry-After; the client tries again shortly. */
export const BUSY_MESSAGE = 'The bank is very busy right now. Please try again in a moment.';
export const busy = () => new AppError('unavailable', BUSY_MESSAGE);
export const conflict = (message: string, fields?: Record<string, string>) => new AppError('conflict', message, fields);

/** An invariant of the bank's own code: failing it is a bug, answered 500 and logged. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
}

// ---------------------------------------------------------------- zod issues
import type { z } from 'zod';

/** Turns zod issues into the `{ message, fields }` answer: the first issue's message leads. */
export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = error.issues[0];
  return new AppError('validation', first?.message ?? 'Invalid request', fields);
}
