import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort, isAlive } from '../../src/server/db/embedded';

/**
 * A pg_auto_failover formation on this machine, from Debian's packages (postgresql-15,
 * postgresql-15-auto-failover, pg-auto-failover-cli): a monitor, a primary and a synchronous
 * secondary, each with its own port and data directory under `root`. PostgreSQL and pg_autoctl
 * refuse to run as root: as root, every command runs as the `postgres` user (runuser).
 */

export const PG_BINDIR = '/usr/lib/postgresql/15/bin';

/**
 * The monitor's settings that decide how fast a dead primary is replaced (pg_auto_failover's
 * defaults take about 50 s: 20 s before a node is unhealthy, then 30 s of demote timeout).
 * README "### Failover" explains the trade-off.
 */
export const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 3000,
  'pgautofailover.primary_demote_timeout': 10000,
} as const;
/** Keeper setting (seconds): a primary cut off from the monitor and its standby stops itself; below the demote timeout. */
export const NETWORK_PARTITION_TIMEOUT_S = 5;

export interface Node {
  name: string;
  port: number;
  pgdata: string;
  keeper: ChildProcess | null;
}

export interface Cluster {
  monitorPort: number;
  nodes: Node[];
  /** libpq-style URL over both nodes, for the app (ADR 009). */
  databaseUrl: string;
  nodeUrl(node: Node, database?: string): string;
  /** Reported and assigned state of each node, from the monitor. */
  states(): Promise<Array<{ name: string; port: number; reported: string; assigned: string }>>;
  /** SIGKILL a node's keeper (pg_autoctl and its children) and its PostgreSQL. */
  kill(node: Node): void;
  stop(): Promise<void>;
}

export type Log = (line: string) => void;

const asPostgres = process.getuid?.() === 0;

export function checkInstalled(): string | null {
  const missing = [path.join(PG_BINDIR, 'pg_ctl'), '/usr/bin/pg_autoctl', '/usr/share/postgresql/15/extension/pgautofailover.control'].filter(
    (file) => !fs.existsSync(file),
  );
  return missing.length === 0
    ? null
    : `Missing ${missing.join(', ')}: install the Debian packages postgresql-15 postgresql-15-auto-failover pg-auto-failover-cli.`;
}

export async function startCluster(root: string, log: Log): Promise<Cluster> {
  const environment = {
    PATH: `${PG_BINDIR}:/usr/bin:/bin`,
    // pg_autoctl keeps its configuration and state files here rather than in the user's home.
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_DATA_HOME: path.join(root, 'share'),
    XDG_RUNTIME_DIR: path.join(root, 'run'),
    LANG: 'C.UTF-8',
  };
  for (const directory of ['config', 'share', 'run', 'logs']) fs.mkdirSync(path.join(root, directory), { recursive: true });
  if (asPostgres) {
    fs.chmodSync(root, 0o755);
    chownTree(root);
  }
  const keepers: ChildProcess[] = [];

  /** A pg_autoctl command as the postgres user; resolves with its output, rejects on a non-zero exit. */
  const autoctl = (args: string[], timeoutMs = 120_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = spawnAutoctl(args, ['ignore', 'pipe', 'pipe']);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(output);
        else reject(new Error(`pg_autoctl ${args.slice(0, 2).join(' ')} failed (exit ${code}):\n${output.split('\n').slice(-25).join('\n')}`));
      });
    });

  const spawnAutoctl = (args: string[], stdio: Array<'ignore' | 'pipe' | number>) => {
    const command = ['env', ...Object.entries(environment).map(([key, value]) => `${key}=${value}`), 'pg_autoctl', ...args];
    return asPostgres
      ? spawn('runuser', ['-u', 'postgres', '--', ...command], { stdio, detached: true, cwd: root })
      : spawn(command[0]!, command.slice(1), { stdio, detached: true, cwd: root });
  };

  /** `pg_autoctl run` in its own process group, logging to logs/<name>.log. */
  const run = (pgdata: string, name: string): ChildProcess => {
    const logFile = fs.openSync(path.join(root, 'logs', `${name}.log`), 'a');
    const keeper = spawnAutoctl(['run', '--pgdata', pgdata], ['ignore', logFile, logFile]);
    fs.closeSync(logFile);
    keepers.push(keeper);
    return keeper;
  };

  const monitorPort = await freePort();
  const monitorData = path.join(root, 'monitor');
  const common = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', path.join(PG_BINDIR, 'pg_ctl')];
  log(`monitor: creating on port ${monitorPort}`);
  await autoctl(['create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), ...common]);
  await autoctl(['config', 'set', '--pgdata', monitorData, 'postgresql.listen_addresses', '127.0.0.1']);
  run(monitorData, 'monitor');
  const monitorUrl = `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`;
  await waitFor(() => query(monitorUrl, 'select 1').then(() => true), 30_000, 'the monitor to accept connections');
  for (const [name, value] of Object.entries(MONITOR_SETTINGS)) await query(monitorUrl, `alter system set ${name} = ${value}`);
  await query(monitorUrl, 'select pg_reload_conf()');
  log(
    `monitor: ${Object.entries(MONITOR_SETTINGS)
      .map(([name, value]) => `${name.replace('pgautofailover.', '')}=${value}`)
      .join(' ')}`,
  );

  const nodes: Node[] = [];
  const nodeUrl = (node: Node, database = 'ledgerline') => `postgres://postgres@127.0.0.1:${node.port}/${database}`;
  const states = async () =>
    (
      await query<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }>(
        monitorUrl,
        'select nodename, nodeport, reportedstate, goalstate from pgautofailover.node order by nodeid',
      )
    ).map((row) => ({ name: row.nodename, port: row.nodeport, reported: row.reportedstate, assigned: row.goalstate }));

  const monitorForNodes = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  for (const name of ['node1', 'node2']) {
    const node: Node = { name, port: await freePort(), pgdata: path.join(root, name), keeper: null };
    nodes.push(node);
    log(`${name}: creating on port ${node.port}`);
    const creating = autoctl([
      'create',
      'postgres',
      '--pgdata',
      node.pgdata,
      '--pgport',
      String(node.port),
      '--listen',
      '127.0.0.1',
      '--name',
      name,
      '--dbname',
      'ledgerline',
      '--monitor',
      monitorForNodes,
      ...common,
    ]);
    // The standby's base backup waits for a checkpoint on the primary, spread over minutes by
    // default: ask for immediate ones while it is being made.
    let created = false;
    const hurry = (async () => {
      const primary = nodes[0];
      if (!primary || primary === node) return;
      while (!created) {
        await query(nodeUrl(primary), 'checkpoint').catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    try {
      await creating;
    } finally {
      created = true;
      await hurry;
    }
    await autoctl(['config', 'set', '--pgdata', node.pgdata, 'timeout.network_partition_timeout', String(NETWORK_PARTITION_TIMEOUT_S)]);
    node.keeper = run(node.pgdata, name);
    const wanted = node === nodes[0] ? ['single'] : ['secondary'];
    await waitFor(
      async () => {
        const state = (await states()).find((row) => row.name === name);
        return !!state && wanted.includes(state.reported) && state.reported === state.assigned;
      },
      90_000,
      `${name} to be ${wanted.join(' or ')}`,
    );
  }
  await waitFor(
    async () => {
      const rows = await states();
      return rows.some((row) => row.reported === 'primary' && row.assigned === 'primary') && rows.some((row) => row.reported === 'secondary');
    },
    60_000,
    'a primary and a secondary',
  );
  const synchronous = await query<{ synchronous_standby_names: string }>(nodeUrl(nodes[0]!), 'show synchronous_standby_names');
  log(
    `formation ready: ${(await states()).map((row) => `${row.name}=${row.reported}`).join(', ')}; synchronous_standby_names=${synchronous[0]?.synchronous_standby_names}`,
  );

  return {
    monitorPort,
    nodes,
    databaseUrl: `postgres://postgres@${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}/ledgerline?target_session_attrs=read-write`,
    nodeUrl,
    states,
    kill(node) {
      const postmaster = postmasterPid(node.pgdata);
      if (node.keeper?.pid) killGroup(node.keeper.pid, 'SIGKILL');
      if (postmaster) killQuietly(postmaster, 'SIGKILL');
    },
    async stop() {
      for (const keeper of keepers) if (keeper.pid) killGroup(keeper.pid, 'SIGTERM');
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && keepers.some((keeper) => keeper.exitCode === null && keeper.signalCode === null)) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const keeper of keepers) if (keeper.pid) killGroup(keeper.pid, 'SIGKILL');
      // A PostgreSQL left behind (its keeper died first) is stopped by its pid file.
      for (const pgdata of [monitorData, ...nodes.map((node) => node.pgdata)]) {
        const pid = postmasterPid(pgdata);
        if (pid) killQuietly(pid, 'SIGQUIT');
      }
    },
  };
}

function chownTree(directory: string): void {
  const { uid, gid } = postgresUser();
  fs.chownSync(directory, uid, gid);
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) chownTree(path.join(directory, entry.name));
    else fs.chownSync(path.join(directory, entry.name), uid, gid);
  }
}

function postgresUser(): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (!uid || !gid) throw new Error('There is no postgres user: install the postgresql-15 package.');
  return { uid: Number(uid), gid: Number(gid) };
}

function postmasterPid(pgdata: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** The whole process group the keeper leads (runuser, pg_autoctl, its services and PostgreSQL). */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  killQuietly(-pid, signal);
}

export async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string, intervalMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}.`);
}
