import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/server/db/embedded';
import { validSignUp } from '../support/app';

// The operator's path: `npm start`'s server on the embedded PostgreSQL in DATA_DIR, stopped and
// started again, keeps what customers did.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-restart-'));
let child: ChildProcess | undefined;

async function start(port: number, env: Record<string, string> = {}): Promise<{ output: () => string }> {
  let output = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waitedMs = 0; waitedMs < 60_000; waitedMs += 250) {
    if (output.includes('Sign-ins:')) return { output: () => output };
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not start: ${output}`);
}

async function stop(): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child?.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

afterAll(async () => {
  await stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('start, restart', () => {
  it('prints the URL and sign-ins, serves the bank, and keeps data across a restart', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output()).toContain(`is running at http://127.0.0.1:${port}`);
    expect(first.output()).toContain('admin@example.com');
    expect(first.output()).toContain('alex.morgan@example.com');
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    const body = validSignUp();
    const signUp = await fetch(`${base}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(signUp.status).toBe(201);
    await stop();

    // Behind a proxy on another port: the banner names the address customers use, and a first-start
    // setting given again says it is ignored.
    const second = await start(port, { PUBLIC_URL: 'http://localhost:8443', ADMIN_PASSWORD: 'Another-Admin-Password-1' });
    expect(second.output()).toContain('Sign-ins:');
    expect(second.output()).toContain('is running at http://localhost:8443');
    expect(second.output()).toContain('-> http://localhost:8443/admin/login');
    expect(second.output()).toContain('ADMIN_PASSWORD is ignored: the first admin (admin@example.com) exists already');
    const signIn = await fetch(`${base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: body.email, password: body.password }),
    });
    expect(signIn.status).toBe(200);
    const demo = await fetch(`${base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' }),
    });
    expect(demo.status).toBe(200);
    // The demo customers are created once, not again on every start.
    const users = await fetch(`${base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Ledgerline-Admin-2026' }),
    });
    expect(users.status).toBe(200);
  }, 120_000);
});
