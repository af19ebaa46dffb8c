import { AppError } from '../lib/errors';

/**
 * PostgreSQL errors recognised by their SQLSTATE code (and constraint name, where one matters).
 * The one place that knows these codes: callers ask a question, they never compare codes.
 */
interface PgError {
  code?: string;
  constraint?: string;
}

const pgError = (error: unknown): PgError => (typeof error === 'object' && error !== null ? (error as PgError) : {});

const matches = (error: unknown, code: string, constraint?: string) => {
  const pg = pgError(error);
  return pg.code === code && (constraint === undefined || pg.constraint === constraint);
};

/** 23505: a unique index refused the row (optionally: that index). */
export const isUniqueViolation = (error: unknown, constraint?: string) => matches(error, '23505', constraint);
/** 23503 (NO ACTION) or 23001 (RESTRICT): a foreign key still points at the row. */
export const isForeignKeyViolation = (error: unknown) => matches(error, '23503') || matches(error, '23001');
/** 23514: a CHECK constraint refused the row. */
export const isCheckViolation = (error: unknown, constraint?: string) => matches(error, '23514', constraint);
/** 40001 serialization failure or 40P01 deadlock: the transaction may simply be run again. */
export const isRetryableTransactionError = (error: unknown) => matches(error, '40001') || matches(error, '40P01');

/** Socket errors that mean the database server cannot be reached (or went away mid-conversation). */
const UNREACHABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres (and its pool) says when a connection is lost, refused in time, or unusable. */
const LOST_CONNECTION_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|timeout expired|not queryable/;

/**
 * The database is away, not wrong: refused (or its Unix socket gone), reset, timed out, terminated (pg_terminate_backend,
 * a restart, a crash), SQLSTATE class 08 (connection exception), 57P01/57P02/57P03 (admin or crash
 * shutdown, cannot connect now), 53300 (too many connections), or 25006 (a read-only transaction:
 * the server we reached is a standby, as after a failover). The request may simply be tried again
 * later: plugins/errors.ts answers these 503 with Retry-After, never 500. Looks through wrapped
 * causes (the pool wraps a connection timeout) and AggregateError (one error per address tried).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, syscall, message, cause, errors } = error as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (UNREACHABLE_SOCKET_CODES.has(code)) return true;
    // A Unix socket whose server is stopped is no file at all (not a refusal).
    if (code === 'ENOENT' && syscall === 'connect') return true;
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code === '25006') return true;
  }
  if (typeof message === 'string' && LOST_CONNECTION_MESSAGE.test(message)) return true;
  if (cause !== undefined && isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The bank is having trouble reaching its database. Please try again in a moment.';

/** The answer to a request that met an unavailable database: 503 with Retry-After (plugins/errors.ts). */
export const databaseUnavailable = () => new AppError('unavailable', DATABASE_UNAVAILABLE_MESSAGE);

/**
 * One line for the log of an expected database failure (a lost connection, an outage): its message
 * and code, without the stack trace that would repeat for every connection and request.
 */
export function describeDatabaseError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}
