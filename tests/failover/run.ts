import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/server/db/embedded';
import { checkInstalled, type Cluster, query, startCluster, waitFor } from './cluster';

/**
 * `npm run test:failover`: the bank on a pg_auto_failover formation (monitor, primary, synchronous
 * secondary; tests/failover/cluster.ts), two app processes on the multi-host DATABASE_URL, a burst
 * of transfers through both, and the primary's PostgreSQL and keeper killed with SIGKILL in the
 * middle of it. Passes when the secondary is promoted, the apps answer again within 60 s without
 * a restart, every transfer answered 2xx is on the new primary, and `ledger:verify` says OK.
 * Exits non-zero otherwise, and always removes every process and directory it made.
 */

const RECOVERY_LIMIT_MS = 60_000;
const ACKNOWLEDGED_MIN = 500;
/** Acknowledged before the kill, so that requests are in flight on a busy primary when it dies. */
const BEFORE_KILL = 300;
const WORKERS_PER_APP = 8;
const CUSTOMERS = [
  { email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' },
  { email: 'jamie.lee@example.com', password: 'Ledgerline-Demo-2026' },
];

const started = Date.now();
const log = (line: string) => console.log(`[failover ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);

interface App {
  name: string;
  base: string;
  process: ChildProcess;
  output: string[];
}

interface Acknowledged {
  key: string;
  userId: string;
  entryId: string;
  app: string;
  /** When the request that was acknowledged was sent, and when its answer came. */
  sentAt: number;
  at: number;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-failover-'));
const apps: App[] = [];
let cluster: Cluster | null = null;
let cleaning: Promise<void> | null = null;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const app of apps) if (app.process.exitCode === null && app.process.signalCode === null) app.process.kill('SIGKILL');
    await cluster?.stop().catch((error: unknown) => log(`stopping the formation: ${String(error)}`));
    fs.rmSync(root, { recursive: true, force: true });
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

async function startApp(name: string, databaseUrl: string): Promise<App> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(root, name),
      NODE_ENV: 'development',
      DEMO_MODE: 'true',
      RATE_LIMITS: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const app = { name, base: `http://127.0.0.1:${port}`, process: child, output };
  apps.push(app);
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited:\n${output.join('\n')}`);
      return (await fetch(`${app.base}/api/health`)).ok;
    },
    90_000,
    `${name} to serve`,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${output.slice(-30).join('\n')}`);
  });
  log(`${name}: serving at ${app.base} (pid ${child.pid})`);
  return app;
}

async function signIn(app: App, customer: (typeof CUSTOMERS)[number]): Promise<{ token: string; userId: string }> {
  const response = await fetch(`${app.base}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(customer),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${customer.email} on ${app.name} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { data: { token: string; user: { _id: string } } };
  return { token: body.data.token, userId: body.data.user._id };
}

async function main(): Promise<void> {
  const notInstalled = checkInstalled();
  if (notInstalled) throw new Error(notInstalled);

  cluster = await startCluster(root, log);
  const formation = cluster;
  const [app1, app2] = [await startApp('app1', formation.databaseUrl), await startApp('app2', formation.databaseUrl)] as [App, App];
  const pids = apps.map((app) => app.process.pid);

  // ---------------------------------------------------------------- the burst
  const acknowledged: Acknowledged[] = [];
  const statuses = new Map<string, number>();
  let inFlight = 0;
  let withoutRetryAfter = 0;
  let killedAt = 0; // set at the kill; read by the watchers below
  let stop = false;
  let sequence = 0;

  const worker = async (app: App, session: { token: string; userId: string }, id: string) => {
    for (let round = 0; !stop; round += 1) {
      // Back and forth between the customer's own accounts: balances stay, every request posts.
      const body = JSON.stringify(round % 2 === 0 ? { from: 'savings', to: 'checking', amount: 1 } : { from: 'checking', to: 'savings', amount: 1 });
      const key = `failover-${id}-${(sequence += 1)}`;
      // A client that is told 503 (or loses the connection) retries with the same key, as documented.
      for (let attempt = 0; !stop; attempt += 1) {
        inFlight += 1;
        const sentAt = Date.now();
        let status: number | string;
        try {
          const response = await fetch(`${app.base}/api/transaction/internal-transfer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}`, 'idempotency-key': key },
            body,
            signal: AbortSignal.timeout(30_000),
          });
          status = response.status;
          if (response.status >= 200 && response.status < 300) {
            const { data } = (await response.json()) as { data: { entryId: string } };
            acknowledged.push({ key, userId: session.userId, entryId: data.entryId, app: app.name, sentAt, at: Date.now() });
          } else {
            await response.arrayBuffer();
            if (response.status === 503 && !/^\d+$/.test(response.headers.get('retry-after') ?? '')) withoutRetryAfter += 1;
          }
        } catch (error) {
          status = error instanceof Error ? error.name : 'error';
        } finally {
          inFlight -= 1;
        }
        statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
        if (typeof status === 'number' && status < 500) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };

  const workers: Array<Promise<void>> = [];
  for (const app of [app1, app2]) {
    const sessions = await Promise.all(CUSTOMERS.map((customer) => signIn(app, customer)));
    for (let index = 0; index < WORKERS_PER_APP; index += 1) workers.push(worker(app, sessions[index % sessions.length]!, `${app.name}-${index}`));
  }
  log(`burst: ${workers.length} clients through ${apps.length} app processes`);
  await waitFor(async () => acknowledged.length >= BEFORE_KILL, 120_000, `${BEFORE_KILL} acknowledged transfers`, 20);

  // ---------------------------------------------------------------- the kill
  const states = await formation.states();
  const primaryState = states.find((row) => row.reported === 'primary');
  const primary = formation.nodes.find((node) => node.name === primaryState?.name);
  const secondary = formation.nodes.find((node) => node !== primary);
  if (!primary || !secondary) throw new Error(`no primary to kill: ${JSON.stringify(states)}`);
  const inFlightAtKill = inFlight;
  const acknowledgedBeforeKill = acknowledged.length;
  killedAt = Date.now();
  formation.kill(primary);
  log(`killed ${primary.name} (PostgreSQL and pg_autoctl, SIGKILL) with ${inFlightAtKill} requests in flight and ${acknowledgedBeforeKill} acknowledged`);

  // ---------------------------------------------------------------- recovery
  let promotedAt = 0;
  let lastStates = '';
  const watchPromotion = waitFor(
    async () => {
      const rows = await formation.states();
      const now = rows.map((row) => `${row.name}: ${row.reported} -> ${row.assigned}`).join(', ');
      if (now !== lastStates) log(`monitor: ${(lastStates = now)}`);
      const survivor = rows.find((row) => row.name === secondary.name);
      if (!survivor || !['wait_primary', 'primary'].includes(survivor.reported)) return false;
      const [role] = await query<{ recovery: boolean }>(formation.nodeUrl(secondary), 'select pg_is_in_recovery() as recovery');
      if (role?.recovery !== false) return false;
      promotedAt ||= Date.now();
      return true;
    },
    RECOVERY_LIMIT_MS,
    `${secondary.name} to be promoted`,
    200,
  );
  // An app has recovered when a transfer it was sent after the kill is acknowledged.
  const firstAfterKill = (app: App) => acknowledged.find((entry) => entry.app === app.name && entry.sentAt > killedAt);
  const watchApps = waitFor(async () => apps.every((app) => firstAfterKill(app)), RECOVERY_LIMIT_MS, 'both apps to acknowledge transfers again', 50);
  await Promise.all([watchPromotion, watchApps]);
  const recoveredAt = Math.max(...apps.map((app) => firstAfterKill(app)!.at));
  log(
    `${secondary.name} promoted after ${((promotedAt - killedAt) / 1000).toFixed(1)} s; both apps acknowledging again after ${((recoveredAt - killedAt) / 1000).toFixed(1)} s`,
  );

  await waitFor(
    async () => acknowledged.length >= ACKNOWLEDGED_MIN && acknowledged.length >= acknowledgedBeforeKill + 100,
    60_000,
    `${ACKNOWLEDGED_MIN} acknowledged transfers`,
    20,
  );
  stop = true;
  await Promise.all(workers);

  // ---------------------------------------------------------------- checks
  const failures: string[] = [];
  if (inFlightAtKill < 1) failures.push('no request was in flight at the moment of the kill');
  if (recoveredAt - killedAt > RECOVERY_LIMIT_MS) failures.push(`the apps took ${recoveredAt - killedAt} ms to recover`);
  for (const app of apps) {
    if (app.process.exitCode !== null || app.process.signalCode !== null)
      failures.push(`${app.name} exited (${app.process.exitCode ?? app.process.signalCode})`);
  }
  if (apps.some((app, index) => app.process.pid !== pids[index])) failures.push('an app process was replaced');
  const unexpected = [...statuses.entries()].filter(([status]) => !['201', '503'].includes(status));
  if (unexpected.length > 0) failures.push(`answers other than 201 and 503: ${JSON.stringify(unexpected)}`);
  if (withoutRetryAfter > 0) failures.push(`${withoutRetryAfter} answers 503 without Retry-After`);

  // The apps' sealers chain what was posted on the new primary too (ADR 008: within about a
  // second once the database answers; their retry pause after failures is at most 5 s).
  const newPrimary = formation.nodeUrl(secondary);
  await waitFor(
    async () => (await query<{ count: string }>(newPrimary, 'select count(*) from ledger_unsealed'))[0]?.count === '0',
    20_000,
    'the sealers to chain every entry on the new primary',
  ).catch((error: unknown) => failures.push(String(error)));

  // Stop the apps, then look at what the new primary holds.
  await Promise.all(
    apps.map(
      (app) =>
        new Promise<void>((resolve) => {
          if (app.process.exitCode !== null) return resolve();
          app.process.once('exit', () => resolve());
          app.process.kill('SIGTERM');
        }),
    ),
  );
  const present = new Map(
    (
      await query<{ user_id: string; key: string; entry_id: string | null; booked: boolean }>(
        newPrimary,
        `select k.user_id, k.key, k.entry_id, exists (select 1 from journal_entries e where e.id = k.entry_id) as booked
           from idempotency_keys k where k.key like 'failover-%'`,
      )
    ).map((row) => [`${row.user_id}/${row.key}`, row]),
  );
  const missing = acknowledged.filter((entry) => {
    const row = present.get(`${entry.userId}/${entry.key}`);
    return !row || row.entry_id !== entry.entryId || !row.booked;
  });
  const duplicateEntries = acknowledged.length - new Set(acknowledged.map((entry) => entry.entryId)).size;
  if (missing.length > 0) failures.push(`${missing.length} acknowledged transfers are not on the new primary (first: ${JSON.stringify(missing[0])})`);
  if (duplicateEntries > 0) failures.push(`${duplicateEntries} acknowledged transfers share an entry`);
  if (acknowledged.length < ACKNOWLEDGED_MIN) failures.push(`only ${acknowledged.length} transfers were acknowledged`);

  const verify = await runVerify(formation.databaseUrl);
  if (verify.code !== 0 || !verify.output.includes('OK')) failures.push(`ledger:verify: ${verify.output.trim()}`);

  console.log('');
  console.log(
    `  acknowledged (2xx):     ${acknowledged.length} (${acknowledgedBeforeKill} before the kill, ${acknowledged.length - acknowledgedBeforeKill} after)`,
  );
  console.log(`  present on new primary: ${acknowledged.length - missing.length}`);
  console.log(`  in flight at the kill:  ${inFlightAtKill}`);
  console.log(`  answers:                ${[...statuses.entries()].map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  console.log(`  promotion:              ${((promotedAt - killedAt) / 1000).toFixed(1)} s after the kill (${secondary.name})`);
  console.log(`  time to recover:        ${((recoveredAt - killedAt) / 1000).toFixed(1)} s (limit ${RECOVERY_LIMIT_MS / 1000} s), same app processes`);
  console.log(`  ledger:verify:          ${verify.output.trim().split('\n').at(-1)}`);
  console.log('');
  if (failures.length > 0) {
    for (const app of apps) console.log(`--- ${app.name} (last lines)\n${app.output.slice(-15).join('\n')}`);
    throw new Error(`failover test FAILED:\n  - ${failures.join('\n  - ')}`);
  }
  log('PASSED');
}

function runVerify(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'ledger:verify'], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      resolve({
        code,
        output: output
          .split('\n')
          .filter((line) => line && !line.startsWith('npm warn'))
          .join('\n'),
      }),
    );
  });
}

main().then(
  () => cleanUp().then(() => process.exit(0)),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    if (fs.existsSync(path.join(root, 'logs'))) {
      for (const file of fs.readdirSync(path.join(root, 'logs'))) {
        const lines = fs.readFileSync(path.join(root, 'logs', file), 'utf8').split('\n');
        console.error(`--- ${file} (last lines)\n${lines.slice(-12).join('\n')}`);
      }
    }
    void cleanUp().finally(() => process.exit(1));
  },
);
