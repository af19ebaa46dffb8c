import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { freePort } from '../../src/server/db/embedded';
import { verifyLedger } from '../../src/server/ledger/verify';
import { createTestDatabase } from '../support/app';

// The real server as a child process, killed with SIGKILL in the middle of a burst of transfers
// and started again: every transfer answered 2xx is in the ledger, and the ledger verifies.

let databaseUrl: string;
let port: number;
let dataDir: string;
let child: ChildProcess | undefined;
let database: DatabaseHandle | undefined;

function startServer(): ChildProcess {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DEMO_MODE: 'true',
      // A burst of hundreds of transfers from one customer: far past the per-customer cap on
      // money calls (ADR 016), which is not what this test is about.
      MONEY_CALLS_PER_MINUTE: '1000000000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return server;
}

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not come up');
}

const stop = (server: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!server || server.exitCode !== null || server.signalCode !== null) return resolve();
    server.once('exit', () => resolve());
    server.kill('SIGKILL');
  });

beforeAll(async () => {
  databaseUrl = (await createTestDatabase()).url;
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-crash-'));
});
afterAll(async () => {
  await stop(child);
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

const transferBody = JSON.stringify({ from: 'savings', to: 'checking', amount: 1 });
const sendTransfer = (token: string, key: string) =>
  fetch(`http://127.0.0.1:${port}/api/transaction/internal-transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
    body: transferBody,
  });

describe('crash during a burst of transfers', () => {
  it('keeps every acknowledged transfer and a ledger that verifies', async () => {
    child = startServer();
    await waitForHealth();
    const token = await signIn();

    const acknowledged = new Map<string, string>();
    const sent: string[] = [];
    let killed = false;
    const worker = async (id: number) => {
      for (let index = 0; !killed && index < 1000; index += 1) {
        const key = `crash-${id}-${index}`;
        sent.push(key);
        try {
          const response = await sendTransfer(token, key);
          if (response.status === 201) acknowledged.set(key, ((await response.json()) as { data: { entryId: string } }).data.entryId);
        } catch {
          return; // the server died under this request
        }
      }
    };
    const workers = Array.from({ length: 16 }, (_, id) => worker(id));
    // Kill once a good number of transfers were acknowledged, while many are still in flight.
    let finished = false;
    const done = Promise.all(workers).then(() => (finished = true));
    while (acknowledged.size < 150 && !finished) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    await stop(child);
    await done;
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);

    child = startServer();
    await waitForHealth();
    database = createDatabase(databaseUrl, { max: 2 });
    const db = database.db;
    const entryIds = [...acknowledged.values()];
    const found = await db.selectFrom('journal_entries').select('id').where('id', 'in', entryIds).execute();
    expect(found.length).toBe(entryIds.length);

    // Every request sent may be retried with its key: acknowledged ones replay the same entry,
    // unanswered ones post at most once. Nothing is posted twice.
    const token2 = await signIn();
    for (const [key, entryId] of [...acknowledged.entries()].slice(0, 30)) {
      const replay = await sendTransfer(token2, key);
      expect(replay.status).toBe(201);
      expect(((await replay.json()) as { data: { entryId: string } }).data.entryId).toBe(entryId);
    }
    const unanswered = sent.filter((key) => !acknowledged.has(key));
    for (const key of unanswered) expect((await sendTransfer(token2, key)).status).toBe(201);
    const internal = await db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('kind', '=', 'internal')
      .executeTakeFirstOrThrow();
    expect(Number(internal.n)).toBe(sent.length);
    const keys = await db
      .selectFrom('idempotency_keys')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(keys.n)).toBe(sent.length);

    const savings = await db
      .selectFrom('ledger_accounts as a')
      .innerJoin('users as u', 'u.id', 'a.owner_id')
      .select('a.balance')
      .where('u.email', '=', 'alex.morgan@example.com')
      .where('a.kind', '=', 'savings')
      .executeTakeFirstOrThrow();
    expect(savings.balance).toBe(1_200_000 - sent.length * 100);
    expect(await verifyLedger(db)).toMatchObject({ ok: true });
  }, 180_000);
});
