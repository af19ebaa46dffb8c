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
