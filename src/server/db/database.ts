import { createHash } from 'node:crypto';
import { type CompiledQuery, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

// bigint (int8) columns carry cents: parse them as JS numbers. Every amount is bounded far below
// 2^53 by AMOUNT_CENTS_MAX and the balance checks, so no precision is lost.
pg.types.setTypeParser(20, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`int8 value ${value} is outside the safe integer range`);
  return parsed;
});
// `date` columns stay plain YYYY-MM-DD strings: no time zone may shift a value date.
pg.types.setTypeParser(1082, (value) => value);

export type DB = Kysely<Database>;

export interface DatabaseHandle {
  db: DB;
  pool: pg.Pool;
  /** Connections open and idle, and queries waiting for one (the db_pool_* metrics). */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** SQL texts that run as named prepared statements, by text: the name for each. */
const preparedNames = new Map<string, string>();
const PREPARED_MAX = 64;

/**
 * Marks a query of constant text (its values are parameters) to run as a named prepared statement:
 * each connection parses and plans it once instead of on every call. For the hottest queries
 * (the session lookup, the ledger writer's statements); a text built from data would fill
 * every connection with statements, so the registry is bounded and refuses to grow past it.
 */
export function prepared<Q extends CompiledQuery>(query: Q): Q {
  if (!preparedNames.has(query.sql)) {
    if (preparedNames.size >= PREPARED_MAX) throw new Error('Too many prepared statements: only constant query texts may be prepared.');
    preparedNames.set(query.sql, `ll_${createHash('sha256').update(query.sql).digest('hex').slice(0, 24)}`);
  }
  return query;
}

/** The pool as Kysely sees it: queries whose text was marked prepared() go out with their name. */
function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = (textOrCursor: unknown, parameters?: ReadonlyArray<unknown>): unknown => {
        // An unnamed text (name undefined) goes out as before: parsed and planned on every call.
        if (typeof textOrCursor === 'string')
          return client.query({ name: preparedNames.get(textOrCursor), text: textOrCursor, values: [...(parameters ?? [])] });
        return client.query(textOrCursor as pg.Submittable);
      };
      return { query, release: () => client.release() } as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

export function createDatabase(connectionString: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    // A statement that runs this long is a bug or an attack; stop it rather than hold locks.
    statement_timeout: 15_000,
    idle_in_transaction_session_timeout: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  return {
    db,
    pool,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await db.destroy();
    },
  };
}

export async function checkDatabase(db: DB): Promise<{ ok: boolean; latencyMs: number; serverVersion?: string }> {
  const started = performance.now();
  try {
    const result = await sql<{ server_version: string }>`show server_version`.execute(db);
    return { ok: true, latencyMs: Math.round(performance.now() - started), serverVersion: result.rows[0]?.server_version };
  } catch {
    return { ok: false, latencyMs: Math.round(performance.now() - started) };
  }
}

export async function assertPostgresVersion(db: DB): Promise<void> {
  const result = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  const version = Number(result.rows[0]?.server_version_num ?? 0);
  if (version < 150000) throw new Error(`Ledgerline needs PostgreSQL 15 or later; this server is ${version}.`);
}
