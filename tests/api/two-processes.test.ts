import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/server/context';
import { createSession } from '../../src/server/auth/sessions';
import { createDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { freePort } from '../../src/server/db/embedded';
import { openCustomerAccounts } from '../../src/server/ledger/accounts';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { sealAll } from '../../src/server/ledger/sealer';
import { verifyLedger } from '../../src/server/ledger/verify';
import { createTestDatabase, valueDate } from '../support/app';
import { STAFF_TOTP_SECRET, staffSignInOverHttp } from '../support/totp';

// Two app instances on one database, as an operator runs several behind a load balancer:
// payments and staff entries through both at once stay correct (each instance has its own ledger
// writer; the hash chain is sealed after commit, ADR 008). The second is a cluster
// (WEB_CONCURRENCY=2): its workers hand customer payments to its primary's writer over IPC and
// post staff entries on their own, so three writers touch the same accounts at once.
const CUSTOMERS = 6;
const ROUNDS = 25;
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-two-'));
const servers: ChildProcess[] = [];
let database: DatabaseHandle;
let bases: string[] = [];

async function startServer(databaseUrl: string, name: string, env: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(directory, name),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      RATE_LIMITS: 'false',
      ADMIN_TOTP_SECRET: STAFF_TOTP_SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waitedMs = 0; waitedMs < 60_000; waitedMs += 200) {
    if (output.includes('Sign-ins:')) return `http://127.0.0.1:${port}`;
    if (child.exitCode !== null) throw new Error(`server ${name} exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server ${name} did not start: ${output}`);
}

beforeAll(async () => {
  const { url } = await createTestDatabase();
  // The first start migrates and seeds; the second finds it done.
  bases = [await startServer(url, 'one'), await startServer(url, 'two', { WEB_CONCURRENCY: '2' })];
  database = createDatabase(url, { max: 4 });
}, 120_000);

afterAll(async () => {
  await Promise.all(
    servers.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(null);
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await database?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

async function customer(index: number): Promise<{ token: string; userId: string }> {
  const user = await database.db
    .insertInto('users')
    .values({
      email: `two.${index}.${Date.now()}@example.com`,
      password_hash: '!not-used',
      first_name: 'Two',
      last_name: `Processes ${index}`,
      is_email_confirmed: true,
      verification_status: 'verified',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await openCustomerAccounts(database.db, user.id);
  const checking = await database.db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('owner_id', '=', user.id)
    .where('kind', '=', 'checking')
    .executeTakeFirstOrThrow();
  const cash = await bankAccountId(database.db, 'bank_cash');
  await database.db.transaction().execute((trx) =>
    postEntries(trx, [
      {
        kind: 'opening',
        description: 'Opening',
        authorId: null,
        postings: [
          { accountId: cash, amountCents: -5_000 },
          { accountId: checking.id, amountCents: 5_000 },
        ],
      },
    ]),
  );
  return { token: await createSession({ db: database.db, clock: systemClock }, user.id, { ip: null, userAgent: 'test' }), userId: user.id };
}

async function call(base: string, token: string, url: string, body: unknown): Promise<{ status: number; message: string }> {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { message?: string };
  return { status: response.status, message: answer.message ?? '' };
}

/**
 * A staff credit under four eyes (ADR 023): asked through one process, approved by the second staff
 * member through the other; answers what the credit answered once carried out.
 */
async function staffCredit(base: string, token: string, approveBase: string, approverToken: string, url: string, body: unknown) {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { data?: { approvalId?: string }; message?: string };
  if (response.status !== 202 || !answer.data?.approvalId) return { status: response.status, message: answer.message ?? '' };
  const approved = await fetch(`${approveBase}/api/admin/approvals/${answer.data.approvalId}/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${approverToken}` },
    body: '{}',
  });
  const decision = (await approved.json()) as { data?: { outcome?: { status: number; message?: string } }; message?: string };
  if (approved.status !== 200) return { status: approved.status, message: decision.message ?? '' };
  return { status: decision.data?.outcome?.status ?? 0, message: decision.data?.outcome?.message ?? '' };
}

describe('two app processes on one database', () => {
  it('posts concurrent payments and staff entries through both, every one once, and the ledger verifies', async () => {
    const customers = await Promise.all(Array.from({ length: CUSTOMERS }, (_, index) => customer(index)));
    const admin = await staffSignInOverHttp(bases[0]!);
    const admin2 = await staffSignInOverHttp(bases[1]!, { email: 'admin2@example.com', password: 'Ledgerline-Admin-2026' });

    const outcomes: Array<{ status: number; message: string }> = [];
    await Promise.all([
      // Each customer moves money back and forth through both processes at once, often more than they have.
      ...customers.flatMap(({ token }, index) =>
        (bases as string[]).map(async (base, side) => {
          for (let round = 0; round < ROUNDS; round += 1) {
            const outward = (round + side + index) % 2 === 0;
            outcomes.push(
              await call(base, token, '/api/transaction/internal-transfer', {
                from: outward ? 'checking' : 'savings',
                to: outward ? 'savings' : 'checking',
                amount: 7 + (round % 5) * 11,
              }),
            );
          }
        }),
      ),
      // Staff credit the same customers through both processes meanwhile.
      ...(bases as string[]).map(async (base, side) => {
        for (let round = 0; round < 10; round += 1) {
          const target = customers[round % CUSTOMERS];
          if (!target) continue;
          outcomes.push(
            await staffCredit(base, admin, bases[1 - side]!, admin2, `/api/transaction/admin/${target.userId}`, {
              amount: 3,
              transactionType: 'credit',
              date: valueDate(),
              // Each its own ask: the same ask while one waits is refused (409) as a double click.
              description: `Goodwill ${side}-${round}`,
              reason: 'two-process test',
            }),
          );
        }
      }),
    ]);

    const unexpected = outcomes.filter((outcome) => outcome.status !== 201 && outcome.message !== 'Insufficient funds');
    expect(unexpected).toEqual([]);
    const posted = outcomes.filter((outcome) => outcome.status === 201).length;
    expect(posted).toBeGreaterThan(CUSTOMERS * ROUNDS); // most payments go through; some find the money elsewhere

    // Every acknowledged request is one entry, and the chain and every balance check out.
    const entries = await database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('kind', 'in', ['internal', 'adjustment'])
      .executeTakeFirstOrThrow();
    expect(Number(entries.count)).toBe(posted);
    await sealAll(database.db);
    expect(await verifyLedger(database.db)).toMatchObject({ ok: true, unsealed: 0 });
  }, 120_000);
});
