import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isAlive, startEmbeddedPostgres, type EmbeddedServer } from '../../src/server/db/embedded';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../src/server/db/errors';

// The real server as a child process on a PostgreSQL of its own, which this file terminates the
// connections of, stops, starts, and kills with SIGKILL under it: the same process (same PID)
// answers 503 with Retry-After while the database is away and serves again, by itself, once it
// is back. No stack trace and no unhandled error in its output.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-db-restart-'));
const databaseDir = path.join(root, 'postgres');
let postgres: EmbeddedServer | undefined;
let postgresPort: number;
let databaseUrl: string;
let child: ChildProcess | undefined;
let base: string;
let output = '';
let token: string;

const startPostgres = async () => {
  postgres = await startEmbeddedPostgres(databaseDir, { port: postgresPort });
  await postgres.createDatabase('ledgerline');
};

beforeAll(async () => {
  postgresPort = await freePort();
  await startPostgres();
  databaseUrl = postgres!.url('ledgerline');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(root, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DEMO_MODE: 'true',
      RATE_LIMITS: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(async () => (await fetch(`${base}/api/health`)).ok, 60_000, 'the server to start');
  const signIn = await fetch(`${base}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' }),
  });
  expect(signIn.status).toBe(200);
  token = ((await signIn.json()) as { data: { token: string } }).data.token;
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await postgres?.stop().catch(() => {});
  fs.rmSync(root, { recursive: true, force: true });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    if (child?.exitCode !== null) throw new Error(`the server exited while waiting for ${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}:\n${output}`);
}

let keys = 0;
const transfer = () =>
  fetch(`${base}/api/transaction/internal-transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': `restart-${(keys += 1)}` },
    body: JSON.stringify({ from: 'savings', to: 'checking', amount: 1 }),
  });
const me = () => fetch(`${base}/api/auth/user`, { headers: { authorization: `Bearer ${token}` } });

async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await response.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'unavailable' });
}

async function expectServing(): Promise<void> {
  // Back by itself: the first requests after the restart may still meet the old connections.
  await waitFor(async () => (await me()).status === 200, 30_000, 'the app to serve again');
  expect((await transfer()).status).toBe(201);
  const all = await Promise.all([me(), me(), transfer(), transfer()]);
  expect(all.map((response) => response.status)).toEqual([200, 200, 201, 201]);
}

describe('PostgreSQL restarts under a running app', () => {
  it('survives pg_terminate_backend on its connections', async () => {
    const pid = child!.pid;
    await Promise.all(Array.from({ length: 6 }, () => transfer()));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rowCount } = await client.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = 'ledgerline' and pid <> pg_backend_pid()");
    await client.end();
    expect(rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expectServing();
    expect(child!.pid).toBe(pid);
    expect(child!.exitCode).toBeNull();
  });

  it('answers 503 with Retry-After while PostgreSQL is stopped, and serves again once it is started', async () => {
    const pid = child!.pid;
    await postgres!.stop();
    await expectUnavailable(await me());
    await expectUnavailable(await transfer());
    await expectUnavailable(
      await fetch(`${base}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' }),
      }),
    );
    await startPostgres();
    await expectServing();
    expect(child!.pid).toBe(pid);
    expect(child!.exitCode).toBeNull();
  }, 60_000);

  it('survives PostgreSQL killed with SIGKILL', async () => {
    const pid = child!.pid;
    const postmaster = Number(fs.readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, 'SIGKILL');
    await waitFor(async () => !isAlive(postmaster), 10_000, 'PostgreSQL to die');
    await expectUnavailable(await me());
    // Its backends notice the postmaster is gone and exit; then it can start again (crash recovery).
    await waitFor(async () => await startPostgres().then(() => true), 30_000, 'PostgreSQL to start again');
    await expectServing();
    expect(child!.pid).toBe(pid);
    expect(child!.exitCode).toBeNull();
  }, 60_000);

  it('said what happened, without stack traces or unhandled errors', () => {
    expect(output).toContain('database');
    expect(output).not.toMatch(/Unhandled|uncaught|\n\s+at /i);
  });
});
