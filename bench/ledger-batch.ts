// `npm run bench:ledger-batch`: where one bulk batch's time goes, A/B in one run. One embedded
// PostgreSQL (fsync on) holds two databases with the same customers: "before" migrated up to the
// migration before 2026-11-24-57 (double entry checked by deferred per-row constraint triggers) and
// "after" migrated to the latest (statement-level checks over the statement's new rows). Rounds
// alternate between them, so both see the same machine load. Per 1,000-row batch it prints: wall
// and CPU milliseconds of the app (this process) and of PostgreSQL's backend (from /proc), split
// into the bulk rows' validation, the payees' lookup, postEntries' write statement and the commit;
// then the sealer chaining the batch (hashing) and the notify_ledger job notifying its payees
// ("before" with main's per-event notifier, "after" with notifyMany). BENCH_BEFORE names another
// last migration for "before" (e.g. 2026-11-26-63-journal-amount-index: the history search's
// trigram indexes against migration 63b's word indexes); from migration 57 on both notify with notifyMany. With BENCH_EXPLAIN=1 (default on) it also prints
// the write statement's EXPLAIN ANALYZE of one batch of each (auto_explain, triggers included).
// Then BENCH_SINGLES (default 300) one-entry transactions on each, A/B: single transfers must not
// get slower. BENCH_ROUNDS (default 10), BENCH_BULK_ROWS (default 1000), BENCH_PAYEES (default 31).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/server/db/migrate';
import { type DB, createDatabase } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { migrations } from '../src/server/db/migrations/index';
import { ensureBankAccounts, openCustomerAccounts } from '../src/server/ledger/accounts';
import { bankAccountId, type EntryInput, postEntries } from '../src/server/ledger/posting';
import { sealAll } from '../src/server/ledger/sealer';
import { loadConfig } from '../src/server/config';
import { systemClock } from '../src/server/context';
import { chainedSince, eventsOf, LEDGER_NOTIFY_BATCH_MAX, notifyLedgerEntries } from '../src/server/notifications/ledger-notifier';
import * as notifications from '../src/server/notifications/repository';
import { lookupRecipients, notifyWith } from '../src/server/notifications/service';
import { inTransaction } from '../src/server/db/transaction';
import { describeVerifyResult, verifyLedger } from '../src/server/ledger/verify';
import { checkBulkRows } from '../src/shared/contracts/bulk-payments';
import { findPayees } from '../src/server/bulk-payments/repository';
import { bulkEntries } from '../src/server/bulk-payments/service';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1000);
const PAYEES = Number(process.env.BENCH_PAYEES ?? 31);
const EXPLAIN = (process.env.BENCH_EXPLAIN ?? '1') !== '0';
/** Single transfers (one entry a transaction, as the writer's smallest batch) timed A/B after the batches. */
const SINGLES = Number(process.env.BENCH_SINGLES ?? 300);
const CONFIG = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgres://unused' });
const LAST_BEFORE = process.env.BENCH_BEFORE ?? '2026-11-24-55d-approvals';
if (!Object.keys(migrations).includes(LAST_BEFORE)) throw new Error(`BENCH_BEFORE: no migration ${LAST_BEFORE}`);
/** Whether "before" predates notifyMany (migration 57's statement-level checks landed with it). */
const BEFORE_NOTIFIES_PER_EVENT = Object.keys(migrations).indexOf(LAST_BEFORE) < Object.keys(migrations).indexOf('2026-11-24-57-set-based-balance-checks');

/**
 * The notify_ledger job as main had it (one notifyWith, one insert, per event), for "before": the
 * same cursor, reads and decisions as notifyLedgerEntries, which now writes a batch's
 * notifications in one statement (notifyMany).
 */
async function notifyPerEvent(db: DB): Promise<void> {
  for (;;) {
    const read = await inTransaction(db, async (trx) => {
      const after = await notifications.lockCursor(trx, 'ledger');
      const rows = await chainedSince(trx, after, LEDGER_NOTIFY_BATCH_MAX);
      const last = rows[rows.length - 1];
      if (!last) return 0;
      const byEntry = new Map<string, notifications.ChainedPosting[]>();
      for (const row of rows) byEntry.set(row.entry_id, [...(byEntry.get(row.entry_id) ?? []), row]);
      const events = [...byEntry.values()].flatMap(eventsOf);
      const lookup = await lookupRecipients(trx, [...new Set(events.map((event) => event.userId))]);
      for (const event of events) await notifyWith({ db: trx, clock: systemClock, config: CONFIG }, event, lookup);
      await notifications.moveCursor(trx, 'ledger', last.position, systemClock.now());
      return last.position - after;
    });
    if (read < LEDGER_NOTIFY_BATCH_MAX) return;
  }
}

interface Bank {
  name: string;
  db: DB;
  close: () => Promise<void>;
  payer: string;
  payees: Array<{ id: string; number: string }>;
}

async function seed(name: string, url: string, last: string | null): Promise<Bank> {
  const handle = createDatabase(url, { max: 2 });
  const db = handle.db;
  await migrateToLatest(db, { upTo: last });
  await ensureBankAccounts(db);
  const cash = await bankAccountId(db, 'bank_cash');
  const accounts: Array<{ id: string; number: string }> = [];
  for (let index = 0; index <= PAYEES; index += 1) {
    const user = await db
      .insertInto('users')
      .values({ email: `batch.${index}@example.com`, password_hash: '!bench', first_name: 'Batch', last_name: `Customer ${index}`, is_email_confirmed: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await openCustomerAccounts(db, user.id);
    const checking = await db
      .selectFrom('ledger_accounts')
      .select(['id', 'number'])
      .where('owner_id', '=', user.id)
      .where('kind', '=', 'checking')
      .executeTakeFirstOrThrow();
    accounts.push({ id: checking.id, number: checking.number ?? '' });
  }
  const [payer, ...payees] = accounts;
  if (!payer) throw new Error('no payer');
  await db.transaction().execute((trx) =>
    postEntries(trx, [
      {
        kind: 'opening',
        description: 'Opening balance',
        authorId: null,
        postings: [
          { accountId: cash, amountCents: -1_000_000_000 },
          { accountId: payer.id, amountCents: 1_000_000_000 },
        ],
      },
    ]),
  );
  await sealAll(db);
  await sql`analyze`.execute(db);
  return { name, db, close: () => handle.close(), payer: payer.id, payees };
}

function batchRows(bank: Bank, round: number) {
  return Array.from({ length: ROWS }, (_, row) => ({
    accountNumber: (bank.payees[row % bank.payees.length] as { number: string }).number,
    amount: '0.01',
    name: `Payee ${row % bank.payees.length}`,
    description: `Round ${round} row ${row + 1}`,
  }));
}

interface Timing {
  validateMs: number;
  lookupMs: number;
  writeMs: number;
  commitMs: number;
  sealMs: number;
  notifyMs: number;
  /** CPU of this process and of the whole PostgreSQL (every backend) while posting (validation to commit), then while sealing and notifying. */
  appCpuMs: number;
  pgCpuMs: number;
  afterAppCpuMs: number;
  afterPgCpuMs: number;
}

let postmaster = 0;
/** CPU seconds of each process of the PostgreSQL cluster (the postmaster and every process it started), by pid. */
function clusterSnapshot(): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pid) === postmaster || Number(fields[1]) === postmaster) snapshot.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // exited
    }
  }
  return snapshot;
}

/** CPU seconds the cluster used since the snapshot: per process, so one that exited in between counts nothing and one that started counts whole. */
function clusterCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of clusterSnapshot()) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** The batch as the bank posts it (bulkEntries). */
function batchEntries(
  bank: Bank,
  payees: Map<string, string>,
  rows: Array<{ accountNumber: string; amount: number; name: string; description?: string | null }>,
  round: number,
): EntryInput[] {
  return bulkEntries(
    rows.map((row) => ({ ...row, accountId: payees.get(row.accountNumber) as string })),
    { sourceAccountId: bank.payer, batchId: `round-${round}`, senderName: 'Batch Customer 0', authorId: null },
  );
}

async function oneBatch(bank: Bank, round: number): Promise<Timing> {
  const raw = batchRows(bank, round);
  return bank.db.connection().execute(async (conn) => {
    const appBefore = process.cpuUsage();
    const pgBefore = clusterSnapshot();
    let started = performance.now();
    const checked = checkBulkRows(raw);
    if (!checked.ok) throw new Error('bench rows are invalid');
    const validateMs = performance.now() - started;
    started = performance.now();
    const payees = new Map((await findPayees(conn, [...new Set(checked.rows.map((row) => row.accountNumber))])).map((payee) => [payee.number ?? '', payee.id]));
    const lookupMs = performance.now() - started;
    const entries = batchEntries(bank, payees, checked.rows, round);
    let writeMs = 0;
    await conn.transaction().execute(async (trx) => {
      started = performance.now();
      await postEntries(trx, entries);
      writeMs = performance.now() - started;
      started = performance.now();
    });
    const commitMs = performance.now() - started;
    const pgCpuMs = clusterCpuSince(pgBefore) * 1000;
    const pgAfterPost = clusterSnapshot();
    const app = process.cpuUsage(appBefore);
    const afterApp = process.cpuUsage();
    started = performance.now();
    await sealAll(bank.db);
    const sealMs = performance.now() - started;
    // The money-received notifications of the batch (the notify_ledger job's work after the sealer).
    started = performance.now();
    if (bank.name === 'before' && BEFORE_NOTIFIES_PER_EVENT) await notifyPerEvent(bank.db);
    else await notifyLedgerEntries({ db: bank.db, clock: systemClock, config: CONFIG });
    const notifyMs = performance.now() - started;
    const appAfter = process.cpuUsage(afterApp);
    return {
      validateMs,
      lookupMs,
      writeMs,
      commitMs,
      sealMs,
      notifyMs,
      appCpuMs: (app.user + app.system) / 1000,
      pgCpuMs,
      afterAppCpuMs: (appAfter.user + appAfter.system) / 1000,
      afterPgCpuMs: clusterCpuSince(pgAfterPost) * 1000,
    };
  });
}

/** SINGLES one-entry transactions, alternating by 50 between the banks: PostgreSQL's CPU (whole cluster) and wall per entry. */
async function singles(banks: Bank[]): Promise<Map<string, { cpuUs: number; wallMs: number[] }>> {
  const result = new Map(banks.map((bank) => [bank.name, { cpuUs: 0, wallMs: [] as number[] }]));
  for (let done = 0; done < SINGLES; done += 50) {
    for (const bank of done % 100 === 0 ? banks : [...banks].reverse()) {
      const into = result.get(bank.name);
      if (!into) continue;
      const payee = (bank.payees[0] as { id: string }).id;
      const cpuBefore = clusterSnapshot();
      for (let index = 0; index < 50; index += 1) {
        const started = performance.now();
        await bank.db.transaction().execute((trx) =>
          postEntries(trx, [
            {
              kind: 'transfer',
              description: `Single ${done + index}`,
              authorId: null,
              postings: [
                { accountId: bank.payer, amountCents: -1, memo: null, counterparty: 'Payee' },
                { accountId: payee, amountCents: 1, memo: 'Transfer from Batch Customer 0', counterparty: 'Batch Customer 0' },
              ],
            },
          ]),
        );
        into.wallMs.push(performance.now() - started);
      }
      into.cpuUs += (clusterCpuSince(cpuBefore) * 1e6) / SINGLES;
    }
  }
  return result;
}

/** The write statement's EXPLAIN ANALYZE (auto_explain, triggers included; the checks made immediate so "before"'s deferred ones show too). */
async function explainBatch(bank: Bank, url: string, round: number): Promise<string> {
  const handle = createDatabase(url, { max: 1 });
  const notices: string[] = [];
  handle.pool.on('connect', (client) => client.on('notice', (notice) => notices.push(notice.message ?? '')));
  try {
    const rows = batchRows(bank, round);
    const checked = checkBulkRows(rows);
    if (!checked.ok) throw new Error('bench rows are invalid');
    const payees = new Map(
      (await findPayees(handle.db, [...new Set(checked.rows.map((row) => row.accountNumber))])).map((payee) => [payee.number ?? '', payee.id]),
    );
    const entries = batchEntries(bank, payees, checked.rows, round);
    await handle.db.transaction().execute(async (trx) => {
      await sql`set constraints all immediate`.execute(trx);
      await sql`load 'auto_explain'`.execute(trx);
      for (const setting of ['log_min_duration = 20', 'log_analyze = on', 'log_triggers = on', 'log_timing = on', 'log_buffers = off'])
        await sql.raw(`set local auto_explain.${setting}`).execute(trx);
      await sql`set local client_min_messages = log`.execute(trx);
      await postEntries(trx, entries);
    });
    await sealAll(handle.db);
    return notices
      .filter((notice) => notice.includes('Plan'))
      .map((notice) =>
        notice
          .replace(/^duration: [0-9.]+ ms\s+plan:\s*/, '')
          .replace(/Query Text:[\s\S]*?\n(?=\s*(Result|Insert|Update|CTE|InitPlan|->|Aggregate|Limit))/, ''),
      )
      .join('\n');
  } finally {
    await handle.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-batch-'));
  const postgres = await startEmbeddedPostgres(path.join(directory, 'pg'), { flags: ['-c', 'shared_buffers=128MB'] });
  try {
    await postgres.createDatabase('before');
    await postgres.createDatabase('after');
    const banks = [await seed('before', postgres.url('before'), LAST_BEFORE), await seed('after', postgres.url('after'), null)];
    if (process.env.BENCH_WITHOUT_TRGM) {
      // Diagnosis only: what the history search's indexes cost a batch (a third bank without any:
      // migration 31's trigram ones, or migration 63b's word ones that replaced them).
      await postgres.createDatabase('no_index');
      const bank = await seed('no_index', postgres.url('no_index'), null);
      for (const index of [
        'postings_memo_trgm_idx',
        'postings_counterparty_trgm_idx',
        'journal_entries_description_trgm_idx',
        'postings_history_words_idx',
        'journal_entries_history_words_idx',
      ])
        await sql.raw(`drop index if exists ${index}`).execute(bank.db);
      banks.push(bank);
    }
    postmaster = Number(fs.readFileSync(path.join(directory, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const timings = new Map<string, Timing[]>(banks.map((bank) => [bank.name, []]));
    // Warm-up: a batch each (plans, caches).
    for (const bank of banks) await oneBatch(bank, 0);
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const bank of round % 2 === 0 ? banks : [...banks].reverse()) timings.get(bank.name)?.push(await oneBatch(bank, round));
    }
    console.log('');
    console.log(
      `One bulk batch of ${ROWS} payments (to ${PAYEES} payees), wall ms: medians of ${ROUNDS} rounds alternating A/B, CPU ms: means (the app is this process, PG every backend of the cluster); load average ${os.loadavg()[0]?.toFixed(1)}, ${os.cpus().length} cores`,
    );
    const columns = [
      'schema',
      'validate ms',
      'payees ms',
      'postEntries ms',
      'commit ms',
      'seal ms',
      'notify ms',
      'post app CPU',
      'post PG CPU',
      'seal+notify app CPU',
      'seal+notify PG CPU',
      'CPU µs/payment',
    ];
    console.log(columns.map((title, index) => title.padStart(index === 0 ? 8 : Math.max(10, title.length))).join('  '));
    for (const bank of banks) {
      const list = timings.get(bank.name) ?? [];
      const m = (pick: (timing: Timing) => number) => median(list.map(pick));
      const mean = (pick: (timing: Timing) => number) => list.reduce((sum, timing) => sum + pick(timing), 0) / Math.max(1, list.length);
      const cpu = mean((t) => t.appCpuMs + t.pgCpuMs + t.afterAppCpuMs + t.afterPgCpuMs);
      const values = [
        m((t) => t.validateMs),
        m((t) => t.lookupMs),
        m((t) => t.writeMs),
        m((t) => t.commitMs),
        m((t) => t.sealMs),
        m((t) => t.notifyMs),
        mean((t) => t.appCpuMs),
        mean((t) => t.pgCpuMs),
        mean((t) => t.afterAppCpuMs),
        mean((t) => t.afterPgCpuMs),
      ];
      console.log(
        [
          bank.name.padStart(8),
          ...values.map((value, index) => value.toFixed(1).padStart(Math.max(10, (columns[index + 1] ?? '').length))),
          ((cpu * 1000) / ROWS).toFixed(0).padStart(14),
        ].join('  '),
      );
    }
    if (SINGLES > 0) {
      const single = await singles(banks);
      console.log('');
      console.log(`Single transfers: ${SINGLES} one-entry transactions each, alternating by 50 (load average ${os.loadavg()[0]?.toFixed(1)})`);
      console.log(['schema', 'wall p50 ms', 'PG CPU µs/entry'].map((title, index) => title.padStart(index === 0 ? 8 : 16)).join('  '));
      for (const [name, { cpuUs, wallMs }] of single)
        console.log([name.padStart(8), median(wallMs).toFixed(2).padStart(16), cpuUs.toFixed(0).padStart(16)].join('  '));
    }
    if (EXPLAIN) {
      for (const bank of banks) {
        console.log('');
        console.log(`EXPLAIN ANALYZE of postEntries' write statement, ${bank.name} (double-entry checks immediate):`);
        console.log(await explainBatch(bank, postgres.url(bank.name), ROUNDS + 1));
      }
    }
    for (const bank of banks) {
      await sealAll(bank.db);
      console.log(`${bank.name}: ledger ${describeVerifyResult(await verifyLedger(bank.db))}`);
    }
    for (const bank of banks) await bank.close();
    // The operator's command on each database, as after a bench:transfers run.
    for (const bank of banks) {
      const verify = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/verify-ledger.ts'], {
        env: { ...process.env, DATABASE_URL: postgres.url(bank.name), NODE_ENV: 'test' },
        encoding: 'utf8',
      });
      console.log(`${bank.name}: npm run ledger:verify exited ${verify.status}: ${(verify.stdout + verify.stderr).trim()}`);
    }
  } finally {
    await postgres.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
