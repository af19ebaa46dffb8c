import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/server/db/embedded';
import { newSigningKeyPem } from '../../src/server/signing/keys';
import { createTestDatabase, validSignUp } from '../support/app';

// The real server, as an operator runs it: started, asked to stop with SIGTERM, and (in a cluster)
// with a worker killed under it.

interface Server {
  child: ChildProcess;
  port: number;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

const started: Server[] = [];
const directories: string[] = [];

function spawnServer(env: Record<string, string>, port = 0): Server {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: '', LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, port, stdout: () => stdout, stderr: () => stderr, exit };
  started.push(server);
  return server;
}

async function waitFor(condition: () => boolean, what: string, server: Server, timeoutMs = 60_000): Promise<void> {
  for (let waitedMs = 0; waitedMs < timeoutMs; waitedMs += 50) {
    if (condition()) return;
    if (server.child.exitCode !== null) throw new Error(`server exited (${server.child.exitCode}) before ${what}:\n${server.stdout()}\n${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}:\n${server.stdout()}\n${server.stderr()}`);
}

const count = (text: string, pattern: RegExp) => text.split('\n').filter((line) => pattern.test(line)).length;
const logLines = (server: Server) =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; reqId?: string; req?: { url?: string } });
/** A stack trace looks like "    at fn (file:line)". */
const STACK_LINE = /^\s+at .+[(:]/m;

/** One request on its own connection (so a cluster spreads them over its workers). */
function request(port: number, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method, path: url, agent: false, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const signUp = (port: number) => request(port, 'POST', '/api/auth/signup', { 'content-type': 'application/json' }, JSON.stringify(validSignUp()));

afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await Promise.all(started.map((server) => server.exit));
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

describe('refusing to start', () => {
  it('exits 1 naming each unsafe production setting, without a stack trace', async () => {
    const server = spawnServer({ NODE_ENV: 'production', DATA_DIR: path.join(os.tmpdir(), 'ledgerline-never-created') });
    expect(await server.exit).toBe(1);
    for (const name of ['DEMO_MODE', 'SMTP_URL', 'PUBLIC_URL', 'BANK_SIGNING_KEY_FILE']) expect(server.stderr()).toContain(`${name}: must`);
    expect(server.stderr()).not.toMatch(STACK_LINE);
    expect(fs.existsSync(path.join(os.tmpdir(), 'ledgerline-never-created'))).toBe(false);
  });
});

describe('a production start', () => {
  it('writes only JSON lines on stdout, its banner (with the generated admin password) among them', async () => {
    const { url } = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-production-'));
    directories.push(dataDir);
    const keyFile = path.join(dataDir, 'signing-key.pem');
    fs.writeFileSync(keyFile, newSigningKeyPem(), { mode: 0o600 });
    const port = await freePort();
    const server = spawnServer(
      {
        NODE_ENV: 'production',
        DEMO_MODE: 'false',
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SMTP_URL: 'smtp://127.0.0.1:9',
        PUBLIC_URL: `http://localhost:${port}`,
        ALLOW_HTTP: 'true',
        BANK_SIGNING_KEY_FILE: keyFile,
        ADMIN_EMAIL: 'ops@bank.example',
      },
      port,
    );
    await waitFor(() => server.stdout().includes('is running at'), 'the banner', server);
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const banner = logLines(server).find((line) => line.msg.endsWith(`is running at http://localhost:${port}`)) as unknown as { banner: string[] };
    expect(banner.banner).toContainEqual(expect.stringMatching(/^admin\s+ops@bank\.example\s+\S{12,}\s+-> http:\/\/localhost:\d+\/admin\/login$/));
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  }, 120_000);
});

describe('graceful shutdown of one process', () => {
  /** Starts a server on its own database and holds requests in flight: the users table is locked. */
  async function serverWithRequestsInFlight() {
    const { url } = await createTestDatabase();
    const port = await freePort();
    const server = spawnServer({ DATABASE_URL: url, RATE_LIMITS: 'false', DEMO_MODE: 'false' }, port);
    await waitFor(() => server.stdout().includes('Sign-ins:'), 'the banner', server);
    // Without demo mode there is no development mailbox: the banner does not point at one.
    expect(server.stdout()).toContain('Mail: not sent: set SMTP_URL');
    expect(server.stdout()).not.toContain('/dev/mailbox');
    const lock = new pg.Client({ connectionString: url });
    await lock.connect();
    await lock.query('begin');
    await lock.query('lock table users in access exclusive mode');
    const signUps = [signUp(port), signUp(port), signUp(port)].map((call) => call.catch((error: unknown) => error));
    const arrived = () => logLines(server).filter((line) => line.msg === 'incoming request' && line.req?.url === '/api/auth/signup').length === 3;
    await waitFor(arrived, 'the sign-ups to arrive', server);
    return { server, lock, signUps };
  }

  it('on SIGTERM finishes the requests in flight, then exits 0 with one log line and no stack trace', async () => {
    const { server, lock, signUps } = await serverWithRequestsInFlight();
    server.child.kill('SIGTERM');
    await waitFor(() => server.stdout().includes('shutting down'), 'the shutdown line', server);
    // The sign-ups wait for the lock: the process waits for them.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.child.exitCode).toBeNull();
    await lock.query('commit');
    await lock.end();
    for (const answer of await Promise.all(signUps)) expect(answer).toMatchObject({ status: 201 });
    expect(await server.exit).toBe(0);
    const lines = logLines(server);
    expect(lines.filter((line) => /shut/i.test(line.msg))).toEqual([
      expect.objectContaining({ level: 30, msg: 'SIGTERM: shutting down (finishing requests in flight)' }),
    ]);
    // Nothing but request lines (of the finished sign-ups) after it, and nothing went wrong.
    const after = lines.slice(lines.findIndex((line) => /shutting down/.test(line.msg)) + 1);
    expect(after.filter((line) => line.level >= 40)).toEqual([]);
    expect(after.filter((line) => line.msg === 'request completed')).toHaveLength(3);
    expect(server.stderr()).not.toMatch(STACK_LINE);
    // Only the start-up note that the web build was made in demo mode (this start is not) may stand there.
    expect(server.stderr().replace(/^Warning: the web build was made with .*\n/m, '')).toBe('');
  }, 120_000);

  it('exits 1 at once on a second signal while still finishing', async () => {
    const { server, lock, signUps } = await serverWithRequestsInFlight();
    try {
      server.child.kill('SIGTERM');
      await waitFor(() => server.stdout().includes('shutting down'), 'the shutdown line', server);
      server.child.kill('SIGINT');
      expect(await server.exit).toBe(1);
      expect(server.stdout()).toContain('second SIGINT: exiting now');
      expect(server.stderr()).not.toMatch(STACK_LINE);
    } finally {
      await lock.query('rollback').catch(() => undefined);
      await lock.end();
      await Promise.all(signUps);
    }
  }, 120_000);
});

describe('WEB_CONCURRENCY=2 on the embedded PostgreSQL', () => {
  const METRICS_TOKEN = 'cluster-metrics-token-01';

  /** The node processes the primary forked (its workers), by pid. */
  const workersOf = (primary: number): number[] =>
    fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
          const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          return command === 'node' && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === primary;
        } catch {
          return false;
        }
      })
      .map(Number);

  const liveCount = (page: string) =>
    Number(/^http_request_duration_seconds_count\{method="GET",route="\/api\/health\/live",status="200"\} (\d+)$/m.exec(page)?.[1] ?? NaN);

  it('serves from the primary and its worker, sums their metrics, replaces a killed worker, and stops cleanly', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-cluster-'));
    directories.push(dataDir);
    const port = await freePort();
    const server = spawnServer({ DATA_DIR: dataDir, WEB_CONCURRENCY: '2', METRICS_TOKEN }, port);
    await waitFor(() => server.stdout().includes('Sign-ins:'), 'the banner', server, 90_000);
    const primary = server.child.pid ?? 0;
    expect(count(server.stdout(), /is running at/)).toBe(1);
    expect(server.stdout()).toContain('Processes: 2 (WEB_CONCURRENCY)');
    // Two processes serve: the primary and one worker it forked.
    const firstWorkers = workersOf(primary);
    expect(firstWorkers).toHaveLength(1);

    for (let index = 0; index < 20; index += 1) expect((await request(port, 'GET', '/api/health/live')).status).toBe(200);
    // Either process answers the same sum: the primary gathers the worker's registry and its own.
    const pages = await Promise.all(Array.from({ length: 6 }, () => request(port, 'GET', '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(liveCount(page.body)).toBe(20);
      expect(page.body).toMatch(/^db_pool_waiting 0$/m);
    }
    expect((await request(port, 'GET', '/metrics')).status).toBe(401);
    // Requests were served by both processes (their ids are in the log, each line with its pid).
    const servedBy = new Set(
      server
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"request completed"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid),
    );
    expect([...servedBy].sort()).toEqual([primary, ...firstWorkers].sort());

    // A worker dies: the primary starts another, and the bank keeps answering.
    process.kill(firstWorkers[0] ?? 0, 'SIGKILL');
    await waitFor(() => server.stdout().includes('worker exited unexpectedly: starting another'), 'the replacement', server);
    await waitFor(() => workersOf(primary).length === 1 && count(server.stdout(), /worker ready/) >= 2, 'the new worker to be ready', server);
    expect(workersOf(primary)).not.toContain(firstWorkers[0]);
    for (let index = 0; index < 4; index += 1) expect((await request(port, 'GET', '/api/health/ready')).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(count(server.stdout(), /shutting down/)).toBe(1);
    expect(logLines(server).filter((line) => line.level >= 50)).toEqual([]);
    expect(server.stderr()).not.toMatch(STACK_LINE);
    // Every worker is gone, and PostgreSQL was stopped (not left running).
    expect(workersOf(primary)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 180_000);
});
