import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type CompiledQuery, Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import pg from 'pg';
import { type DatabaseTarget, parseDatabaseUrl } from './connection-string';
import { describeDatabaseError, isDatabaseUnavailable } from './errors';
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
  /** PostgreSQL notifications on the channels asked for at creation (none: never listening). */
  notices: Notices;
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

export interface DatabaseLog {
  warn(details: object, message: string): void;
}

/** Without a logger (a command-line tool, a test), connection trouble still says what happened. */
const consoleLog: DatabaseLog = {
  warn: (details, message) => {
    const fields = Object.entries(details).map(([key, value]) => `${key}=${String(value)}`);
    console.warn([message, ...fields].join(' '));
  },
};

/**
 * Which server of DATABASE_URL new connections go to (ADR 009). A server that refuses, fails or is
 * not the kind `target_session_attrs` asks for (a standby, when read-write is wanted) hands over
 * to the next in the list; the one that works stays first until it fails in turn. With one host
 * this never moves.
 */
class HostRouter {
  private current = 0;

  constructor(
    readonly target: DatabaseTarget,
    private readonly log: DatabaseLog,
  ) {}

  get index(): number {
    return this.current;
  }

  get size(): number {
    return this.target.urls.length;
  }

  /** The server at `index` failed: the next connection tries the one after it (once per failure). */
  moveOn(index: number, reason: string): void {
    if (this.size < 2 || index !== this.current) return;
    this.current = (index + 1) % this.size;
    this.log.warn({ from: this.target.hosts[index], to: this.target.hosts[this.current], reason }, 'database: trying the next host of DATABASE_URL');
  }
}

/** The server reached is read-only (a standby) while DATABASE_URL asks for a read-write one. */
export class NotPrimaryError extends Error {
  /** As PostgreSQL answers a write on a standby: read_only_sql_transaction (db/errors.ts: unavailable). */
  readonly code = '25006';

  constructor(host: string) {
    super(`The database server at ${host} is read-only (a standby); looking for the read-write one.`);
  }
}

/** A pg Client aimed at the router's current server, that tells the router when it cannot connect. */
function routedClientClass(router: HostRouter) {
  return class RoutedClient extends pg.Client {
    readonly hostIndex: number;

    constructor(config: pg.ClientConfig = {}) {
      const hostIndex = router.index;
      super({ ...config, connectionString: router.target.urls[hostIndex] });
      this.hostIndex = hostIndex;
    }

    // The pool connects with a callback; the promise form is kept for anyone else.
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
      const failed = (error: Error) => router.moveOn(this.hostIndex, describeDatabaseError(error));
      if (!callback) {
        return super.connect().catch((error: Error) => {
          failed(error);
          throw error;
        });
      }
      super.connect((error: Error) => {
        if (error) failed(error);
        callback(error);
      });
    }
  };
}

type RoutedClient = InstanceType<ReturnType<typeof routedClientClass>>;

/** With target_session_attrs: a new connection to a server of the wrong kind is refused, and the router moves on. */
function sessionCheck(router: HostRouter): ((client: pg.ClientBase) => Promise<void>) | undefined {
  const wanted = router.target.targetSessionAttrs;
  if (wanted === 'any') return undefined;
  return async (client) => {
    const result = await client.query<{ recovery: boolean; read_only: string }>(
      "select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') as read_only",
    );
    const row = result.rows[0];
    const suitable = wanted === 'primary' ? row?.recovery === false : row?.read_only === 'off';
    if (suitable) return;
    const { hostIndex } = client as RoutedClient;
    router.moveOn(hostIndex, 'read-only (a standby)');
    throw new NotPrimaryError(router.target.hosts[hostIndex] ?? 'unknown');
  };
}

/**
 * The pool as Kysely sees it: queries whose text was marked prepared() go out with their name.
 * A connection is tried on each server of DATABASE_URL in turn when the current one fails. A
 * connection that fails while checked out (terminated, the server restarted) rejects its query,
 * never crashes the process, and is dropped from the pool at release; the next one is new.
 */
function preparingPool(pool: pg.Pool, router: HostRouter, log: DatabaseLog): PostgresPool {
  async function acquire(): Promise<pg.PoolClient> {
    for (let attempt = 1; ; attempt += 1) {
      const before = router.index;
      try {
        return await pool.connect();
      } catch (error) {
        // Another server is first in line now (this one failed): try it, once per server.
        if (attempt >= router.size || router.index === before || !isDatabaseUnavailable(error)) throw error;
      }
    }
  }
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await acquire();
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost ??= error;
        log.warn({ reason: describeDatabaseError(error) }, 'database connection lost while in use; it will be replaced');
      };
      client.on('error', onError);
      const failed = (error: unknown) => {
        if (lost === undefined && isDatabaseUnavailable(error)) {
          lost = error as Error;
          router.moveOn((client as unknown as RoutedClient).hostIndex, describeDatabaseError(lost));
        }
        throw error;
      };
      const query = (textOrCursor: unknown, parameters?: ReadonlyArray<unknown>): unknown => {
        // An unnamed text (name undefined) goes out as before: parsed and planned on every call.
        if (typeof textOrCursor === 'string')
          return client.query({ name: preparedNames.get(textOrCursor), text: textOrCursor, values: [...(parameters ?? [])] }).catch(failed);
        return client.query(textOrCursor as pg.Submittable);
      };
      const release = () => {
        client.off('error', onError);
        // A connection that failed goes, and the pool opens a new one when it needs one.
        client.release(lost);
      };
      return { query, release } as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

/**
 * PostgreSQL's notifications (NOTIFY) on the channels a database handle listens to. Every
 * connection of the pool LISTENs as it opens, so a connection that commits a change hears its own
 * notification before its commit answers (PostgreSQL delivers it ahead of the ReadyForQuery, and
 * node-postgres emits it before the query settles): the process that made a change has acted on it
 * before it answers anyone. One more connection, outside the pool, listens all the time (pool
 * connections close when idle); `listening` is true only while it does: whoever relies on hearing
 * every change made elsewhere (the session cache) must stop relying on it whenever it is false.
 *
 * Each notification reaches the handlers once (twice at most, rarely), although PostgreSQL sends
 * it to every listening connection: a pool connection passes on only its own backend's (which it
 * must hear before its commit answers), the held listener every other backend's, and its copy of
 * a pool connection's own only if that connection has not passed it on within OWN_COPY_WAIT_MS of
 * its arrival (it does: its copy comes with the commit's answer). Every copy used to be passed on,
 * so one sign-in dropped a customer's sessions once per connection, the late copies in the middle
 * of lookups that were already fresh.
 */
export interface Notices {
  /** The channels this handle listens to. */
  readonly channels: readonly string[];
  readonly listening: boolean;
  /** A notification on any of the channels: its channel and payload. */
  onNotice(handler: (channel: string, payload: string) => void): void;
  /** The held listener came up (true) or went down (false). */
  onListening(handler: (listening: boolean) => void): void;
}

/** The held listener's application_name (pg_stat_activity shows it to operators). */
export const NOTICES_APPLICATION_NAME = 'ledgerline notices';
/** How long the held listener waits before connecting again after losing its connection. */
const LISTENER_RETRY_MS = 1_000;

/** Notifications of one pool connection awaiting the held listener's copy, at most (then forgotten: copies pass twice). */
const UNMATCHED_MAX = 10_000;
/** How long the held listener's copy of a pool connection's own notification waits for that connection's copy. */
const OWN_COPY_WAIT_MS = 100;
const noticeKey = (message: pg.Notification) => `${message.channel}\n${message.payload ?? ''}`;

class ChannelNotices implements Notices {
  listening = false;
  private readonly events = new EventEmitter();
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /**
   * By backend pid of each open pool connection: how many of its own notifications (by channel
   * and payload) it passed on whose copy the held listener has not had yet. A count left too high
   * (a copy lost while the listener was down) only holds back a later held copy of that
   * connection's own, which the connection passes on itself anyway.
   */
  private readonly unmatched = new Map<number, Map<string, number>>();

  constructor(
    readonly channels: readonly string[],
    private readonly connectClient: () => Promise<pg.Client>,
    private readonly log: DatabaseLog,
  ) {
    this.events.setMaxListeners(0);
  }

  onNotice(handler: (channel: string, payload: string) => void): void {
    this.events.on('notice', handler);
  }

  onListening(handler: (listening: boolean) => void): void {
    this.events.on('listening', handler);
  }

  /** The statement that subscribes a connection to every channel. */
  get listenSql(): string {
    return this.channels.map((channel) => `listen ${pg.escapeIdentifier(channel)}`).join('; ');
  }

  /** A pool connection's own notifications reach the handlers (other backends' come through the held listener). */
  hearOwn(client: pg.ClientBase): void {
    const pid = (client as pg.ClientBase & { processID: number | null }).processID;
    if (pid === null) return;
    const unmatched = new Map<string, number>();
    this.unmatched.set(pid, unmatched);
    client.on('notification', (message) => {
      if (message.processId !== pid || !this.channels.includes(message.channel)) return;
      // Always passed on here, before the commit answers; counted so that the held listener's copy is not.
      const key = noticeKey(message);
      if (unmatched.size >= UNMATCHED_MAX) unmatched.clear();
      unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
      this.emit(message);
    });
    client.once('end', () => {
      if (this.unmatched.get(pid) === unmatched) this.unmatched.delete(pid);
    });
  }

  /** The held listener's notifications reach the handlers, but for a pool connection's own already passed on. */
  private hearAll(client: pg.ClientBase): void {
    client.on('notification', (message) => {
      if (!this.channels.includes(message.channel)) return;
      // Another backend's: passed on at once.
      if (!this.unmatched.has(message.processId)) return this.emit(message);
      // A pool connection's own, which it passes on itself before its commit answers; this copy
      // often comes first, so it waits a moment for that connection's to be counted.
      setTimeout(() => {
        const unmatched = this.unmatched.get(message.processId);
        const key = noticeKey(message);
        const count = unmatched?.get(key) ?? 0;
        // Not passed on there (yet): passing it on twice is harmless, never is not.
        if (count === 0) return this.emit(message);
        if (count === 1) unmatched?.delete(key);
        else unmatched?.set(key, count - 1);
      }, OWN_COPY_WAIT_MS).unref();
    });
  }

  private emit(message: pg.Notification): void {
    this.events.emit('notice', message.channel, message.payload ?? '');
  }

  /** Starts the held listener (again after it was lost, a second later). */
  start(): void {
    if (this.closed || this.client || this.retry) return;
    void (async () => {
      let client: pg.Client | null = null;
      try {
        client = await this.connectClient();
        const lost = (error?: Error) => {
          if (this.client !== client) return;
          this.client = null;
          this.setListening(false);
          if (!this.closed) {
            this.log.warn(
              { reason: error ? describeDatabaseError(error) : 'connection ended' },
              'database: notification listener lost; listening again shortly',
            );
            client?.end().catch(() => undefined);
            this.later();
          }
        };
        client.on('error', lost);
        client.on('end', () => lost());
        this.hearAll(client);
        await client.query(this.listenSql);
        if (this.closed) {
          await client.end();
          return;
        }
        this.client = client;
        this.setListening(true);
      } catch (error) {
        client?.end().catch(() => undefined);
        if (!this.closed) this.later();
        if (!this.closed && !isDatabaseUnavailable(error))
          this.log.warn({ reason: describeDatabaseError(error) }, 'database: could not listen for notifications');
      }
    })();
  }

  private later(): void {
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start();
    }, LISTENER_RETRY_MS);
    this.retry.unref();
  }

  private setListening(listening: boolean): void {
    if (this.listening === listening) return;
    // Copies the held listener missed while it was down will never come to be matched.
    for (const unmatched of this.unmatched.values()) unmatched.clear();
    this.listening = listening;
    this.events.emit('listening', listening);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.setListening(false);
    await client?.end().catch(() => undefined);
  }
}

export function createDatabase(
  connectionString: string,
  options: { max?: number; log?: DatabaseLog; /** Channels to LISTEN on (see Notices). */ channels?: readonly string[] } = {},
): DatabaseHandle {
  const log = options.log ?? consoleLog;
  const router = new HostRouter(parseDatabaseUrl(connectionString), log);
  const RoutedClient = routedClientClass(router);
  const checkSession = sessionCheck(router);
  const notices = new ChannelNotices(
    options.channels ?? [],
    async () => {
      const client = new RoutedClient({
        application_name: NOTICES_APPLICATION_NAME,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        connectionTimeoutMillis: 10_000,
      } as pg.ClientConfig);
      client.on('error', () => undefined);
      try {
        await client.connect();
        // Notifications are not replicated: the listener must be on the server that is written to.
        await checkSession?.(client);
        return client;
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
    },
    log,
  );
  const pool = new pg.Pool({
    Client: RoutedClient,
    max: options.max ?? 20,
    // A statement that runs this long is a bug or an attack; stop it rather than hold locks.
    statement_timeout: 15_000,
    idle_in_transaction_session_timeout: 30_000,
    connectionTimeoutMillis: 10_000,
    // A server that vanished without closing its connections (a network partition) is noticed.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // A new connection is checked (the server's role) and subscribed (LISTEN) before it is handed out.
    onConnect: async (client: pg.ClientBase) => {
      await checkSession?.(client);
      if (notices.channels.length === 0) return;
      notices.hearOwn(client);
      await client.query(notices.listenSql);
    },
  } as pg.PoolConfig);
  // An idle connection that dies (pg_terminate_backend, a restart, a crash) is dropped by the pool
  // and emitted here; without a listener that event would end the process.
  pool.on('error', (error) => log.warn({ reason: describeDatabaseError(error) }, 'idle database connection lost; the pool will open a new one'));
  // A connection checked out directly from the pool (the job runner's, graphile-worker) that dies
  // while in use must not end the process either: its query fails and says why; this only keeps
  // the 'error' event from being unhandled.
  pool.on('connect', (client) => client.on('error', () => undefined));
  if (notices.channels.length > 0) notices.start();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool, router, log) }) });
  return {
    db,
    pool,
    notices,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await notices.close();
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
