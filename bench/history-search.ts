/**
 * npm run bench:history: the customer's history search on a long history.
 *
 * Starts its own embedded PostgreSQL in a temporary directory, migrates a fresh database, and
 * writes with SQL one customer with BENCH_LINES (default 100,000) lines on checking, among
 * BENCH_OTHERS (default 200,000) lines of other customers. Then runs each search of
 * GET /api/transaction (the repository's own query, page 1 and its total) BENCH_RUNS times and
 * prints p50/p99 per search, with the indexes of migration 2026-11-24-31 and again without the
 * trigram ones, and the plan's index names. Bounded: seeding takes about 10-30 s.
 *
 * The seeded journal is written with SQL for speed (no hash chain; entries balanced), as in
 * bench/admin.ts: only the read path is measured here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type DB } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { migrateToLatest } from '../src/server/db/migrate';
import { ensureBankAccounts } from '../src/server/ledger/accounts';
import { listTransactions, type ListFilter } from '../src/server/transactions/repository';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const OTHERS = Number(process.env.BENCH_OTHERS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const P99_TARGET_MS = 50;

const log = (line: string) => process.stdout.write(`${line}\n`);

const PAYEES = ['Green Grocer', 'City Power', 'Harbor Rent LLC', 'Metro Transit', 'Blue Cafe', 'Zimmerman Dental', 'Northwind Insurance', 'Sunset Gym'];

async function seedHistory(db: DB): Promise<string> {
  await ensureBankAccounts(db);
  return db.connection().execute(async (conn) => {
    await sql`set statement_timeout = 0`.execute(conn);
    await sql`
      insert into users (email, password_hash, first_name, last_name, is_email_confirmed, verification_status)
      select 'bench' || i || '@example.com', '!bench', 'Bench', 'Customer' || i, true, 'verified' from generate_series(1, 201) as i`.execute(conn);
    await sql`
      insert into ledger_accounts (number, owner_id, kind, name)
      select (2000000000 + row_number() over (order by u.email))::text, u.id, k.kind, initcap(k.kind)
      from users u cross join (values ('savings'), ('checking')) as k(kind) where u.password_hash = '!bench'`.execute(conn);
    const heavy = await sql<{ id: string; account: string }>`
      select u.id, a.id as account from users u join ledger_accounts a on a.owner_id = u.id and a.kind = 'checking'
      where u.email = 'bench1@example.com'`.execute(conn);
    const { id: heavyUser, account: heavyAccount } = heavy.rows[0]!;
    const payees = sql`${`{${PAYEES.join(',')}}`}::text[]`;
    // Lines of the heavy customer: debits to named payees (the rarest is 1 in 4,000), credits from the bank.
    await sql`
      create temporary table bench_lines as
      select gen_random_uuid() as id, t,
             ${heavyAccount}::uuid as account,
             case when t % 4000 = 0 then 'Rare Rocket Repairs' else (${payees})[1 + t % ${PAYEES.length}] end as counterparty,
             case when t % 3 = 0 then 'Salary ' || t else 'Card payment ' || t end as description,
             case when t % 3 = 0 then 1 else -1 end * (100 + (t::bigint * 7919) % 90000)::bigint as amount
      from generate_series(1, ${LINES}) as t
      union all
      select gen_random_uuid(), ${LINES} + t,
             (select id from ledger_accounts where owner_id is not null and kind = 'checking' and id <> ${heavyAccount} order by id offset (t % 200) limit 1),
             (${payees})[1 + t % ${PAYEES.length}], 'Other ' || t, -(100 + t % 5000)::bigint
      from generate_series(1, ${OTHERS}) as t`.execute(conn);
    await sql`set session_replication_role = replica`.execute(conn);
    const operations = sql`(select id from ledger_accounts where kind = 'bank_operations' and owner_id is null)`;
    await sql`
      insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
      select id, nextval('journal_entries_seq'), 'transfer', description, (now() - make_interval(mins => (${LINES + OTHERS} - t)))::date,
             now() - make_interval(mins => (${LINES + OTHERS} - t)), abs(amount)
      from bench_lines order by t`.execute(conn);
    await sql`
      insert into postings (entry_id, entry_seq, account_id, amount, balance_after, memo, counterparty)
      select l.id, j.seq, l.account, l.amount, 0, null, l.counterparty from bench_lines l join journal_entries j on j.id = l.id
      union all
      select l.id, j.seq, ${operations}, -l.amount, 0, null, 'Bench' from bench_lines l join journal_entries j on j.id = l.id`.execute(conn);
    await sql`set session_replication_role = origin`.execute(conn);
    await sql`vacuum analyze`.execute(conn);
    return heavyUser;
  });
}

async function timeSearch(db: DB, filter: ListFilter): Promise<{ p50: number; p99: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < RUNS + 3; run += 1) {
    const started = performance.now();
    total = (await listTransactions(db, filter)).total;
    if (run >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(fraction * times.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), total };
}

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-history-'));
  const server = await startEmbeddedPostgres(path.join(directory, 'pg'), { flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] });
  try {
    await server.createDatabase('bench_history');
    const database = createDatabase(server.url('bench_history'), { max: 4 });
    database.pool.on('error', () => {});
    const db = database.db;
    await migrateToLatest(db);
    const seedStarted = performance.now();
    const userId = await seedHistory(db);
    log(
      `Seeded ${LINES.toLocaleString('en-US')} lines for one customer among ${OTHERS.toLocaleString('en-US')} others in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.`,
    );

    if (process.env.BENCH_KEEP) {
      // For looking at plans by hand: the database stays up until Ctrl-C.
      log(`Keeping ${server.url('bench_history')} (customer ${userId}) until interrupted.`);
      await new Promise((resolve) => process.once('SIGINT', resolve));
    }
    const base: ListFilter = { userId, page: 1, pageSize: 20, q: undefined, amountMin: undefined, amountMax: undefined };
    const scenarios: Array<{ name: string; filter: ListFilter }> = [
      { name: 'no filter (page 1 and total)', filter: base },
      { name: 'payee, common ("grocer", 1 in 8)', filter: { ...base, q: 'grocer' } },
      { name: 'payee, rare ("rocket", 1 in 4,000)', filter: { ...base, q: 'rocket' } },
      { name: 'words, none match ("xylophone")', filter: { ...base, q: 'xylophone' } },
      { name: 'amount range $500.00-$510.00', filter: { ...base, amountMin: 50_000, amountMax: 51_000 } },
      { name: 'payee and amount ("dental", >= $800)', filter: { ...base, q: 'dental', amountMin: 80_000 } },
    ];
    const rows: Array<{ name: string; variant: string; p50: number; p99: number; total: number }> = [];
    for (const variant of ['with trigram indexes', 'without trigram indexes']) {
      if (variant === 'without trigram indexes') {
        for (const index of [
          'postings_memo_trgm_idx',
          'postings_counterparty_trgm_idx',
          'journal_entries_description_trgm_idx',
          'entry_notes_description_trgm_idx',
        ])
          await sql.raw(`drop index ${index}`).execute(db);
        await sql`analyze`.execute(db);
      }
      for (const scenario of scenarios) rows.push({ name: scenario.name, variant, ...(await timeSearch(db, scenario.filter)) });
    }
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select 1 from postings p where p.counterparty ilike '%rocket%'`.execute(db);
    log('');
    log(
      `History search, one customer with ${LINES.toLocaleString('en-US')} lines, ${RUNS} runs each (page of 20 and its total; target p99 < ${P99_TARGET_MS} ms)`,
    );
    log(`${'search'.padEnd(40)} ${'indexes'.padEnd(24)} ${'matches'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  result`);
    for (const row of rows) {
      log(
        `${row.name.padEnd(40)} ${row.variant.padEnd(24)} ${String(row.total).padStart(8)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)}  ${row.p99 < P99_TARGET_MS ? 'ok' : 'OVER TARGET'}`,
      );
    }
    log(`(plan without trigram indexes, for reference: ${plan.rows.map((row) => row['QUERY PLAN'].trim()).join(' / ')})`);
    await database.close();
  } finally {
    await server.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
