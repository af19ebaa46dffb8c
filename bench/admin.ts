/**
 * npm run bench:admin: the back office with 1,000,000 customers (BENCH_CUSTOMERS to run smaller).
 *
 * Starts its own embedded PostgreSQL, seeds a database set-based (generate_series: the customers,
 * their two accounts, an opening deposit each and BENCH_TRANSFERS transfers over the last 30 days,
 * 1.5 per customer by default), closes the bank days they cover with the real end-of-day job, starts
 * the real app in its own process on loopback and measures, at 16 concurrent clients with
 * autocannon, every back-office read a member of staff waits for: the users list, name and
 * account-number search, the journal with its filters, the dashboard and the trial balance. Prints
 * the seeding time and a table (p50, p99, requests/s) against the 50 ms p99 target (ADR 027).
 *
 * BENCH_DATA_DIR=<directory> keeps the database there between runs: a later run with the same
 * sizes skips the seeding (it still applies new migrations and closes new days), so a 1M database
 * is seeded once. Without it everything lives in a temporary directory, removed at the end.
 * BENCH_SECONDS (default 10) is the measured time per scenario, after a 2 s warm-up;
 * BENCH_STATEMENTS=1 lists each scenario's statements (calls, plans, mean execution and planning
 * time): a statement planned on every call is one whose generic plan PostgreSQL rejected;
 * BENCH_ONLY=<text> runs the scenarios whose name contains it; BENCH_VERIFY=1 chains every
 * seeded entry and runs the ledger verification after seeding (minutes at 1M).
 *
 * The seeded journal is written with SQL for speed, with the journal's triggers off (replica mode):
 * every entry balances, every posting carries its account's running balance and every account's
 * balance equals its postings. The entries are queued for the sealer (ledger_unsealed) as the
 * writer queues them, so the hash chain is computed by the app's own sealer: `ledger:verify` passes
 * once they are sealed (BENCH_VERIFY=1 does it), and until then counts them as unsealed.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { createAppContext } from '../src/server/context';
import { createDatabase, type DB } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { migrateToLatest } from '../src/server/db/migrate';
import { DEMO_ADMIN_TOTP_SECRET, firstAdminTotpSecret, totpCodeAt } from '../src/server/factors/totp';
import { installJobSchema } from '../src/server/jobs/runner';
import { sealAll } from '../src/server/ledger/sealer';
import { verifyLedger } from '../src/server/ledger/verify';
import { createLogger } from '../src/server/lib/logger';
import { createMailer } from '../src/server/mail/mailer';
import { closeEndedDays } from '../src/server/reports/service';
import { DEMO_ADMIN_PASSWORD, seed } from '../src/server/seed';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? Math.round(CUSTOMERS * 1.5));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ONLY = process.env.BENCH_ONLY;
const KEEP_DIR = process.env.BENCH_DATA_DIR;
const CONNECTIONS = 16;
const P99_TARGET_MS = 50;

const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Chris',
  'Lisa',
  'Daniel',
  'Nancy',
  'Matthew',
  'Betty',
  'Anthony',
  'Sandra',
  'Mark',
  'Margaret',
  'Donald',
  'Ashley',
  'Steven',
  'Kimberly',
  'Andrew',
  'Emily',
  'Paul',
  'Donna',
  'Joshua',
  'Michelle',
  'Kenneth',
  'Carol',
  'Kevin',
  'Amanda',
  'Brian',
  'Melissa',
  'George',
  'Deborah',
  'Timothy',
  'Stephanie',
];
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Gomez',
  'Phillips',
  'Evans',
  'Turner',
  'Diaz',
  'Parker',
  'Cruz',
  'Edwards',
  'Collins',
  'Reyes',
  'Stewart',
  'Morris',
  'Morales',
  'Murphy',
  'Cook',
  'Rogers',
  'Gutierrez',
  'Ortiz',
  'Morgan',
  'Cooper',
  'Peterson',
  'Bailey',
  'Reed',
  'Kelly',
  'Howard',
  'Ramos',
  'Kim',
  'Cox',
  'Ward',
  'Richardson',
  'Watson',
  'Brooks',
  'Chavez',
  'Wood',
  'James',
  'Bennett',
  'Gray',
  'Mendoza',
  'Ruiz',
  'Hughes',
  'Price',
  'Alvarez',
  'Castillo',
  'Sanders',
  'Patel',
  'Myers',
  'Long',
  'Ross',
  'Foster',
  'Zimmerman',
];

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Runs a bulk load with the tables' indexes dropped, then builds them again as the migrations
 * defined them: one sort per index instead of millions of inserts into each. Primary and unique
 * keys go too when no foreign key depends on them (they come back as the same constraints).
 */
async function withoutIndexes(conn: DB, tables: string[], load: () => Promise<void>): Promise<void> {
  const indexes = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = 'public' and i.tablename = any(${tables}::text[])
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(conn);
  const keys = await sql<{ table: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition from pg_constraint c
    where c.conrelid = any(${tables}::text[]::regclass[]) and c.contype in ('p', 'u')
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = c.conindid)`.execute(conn);
  for (const key of keys.rows) await sql`alter table ${sql.id(key.table)} drop constraint ${sql.id(key.name)}`.execute(conn);
  for (const index of indexes.rows) await sql`drop index ${sql.id(index.name)}`.execute(conn);
  await load();
  const started = performance.now();
  for (const key of keys.rows) await sql`alter table ${sql.id(key.table)} add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(conn);
  for (const index of indexes.rows) await sql.raw(index.definition).execute(conn);
  log(`  ${indexes.rows.length + keys.rows.length} indexes of ${tables.join(', ')} built again: ${seconds(started)}`);
}

/**
 * The customers, their accounts and their entries, set-based on one connection (the temporary
 * tables and the replication role are per session). Entries are numbered in booking order, so seq
 * (the order the writer applies entries) grows with the booking time, as it does in the bank.
 */
async function seedCustomers(db: DB): Promise<void> {
  await db.connection().execute(async (conn) => {
    const step = async (label: string, statement: { execute(conn: DB): Promise<unknown> }) => {
      const started = performance.now();
      await statement.execute(conn);
      log(`  ${label}: ${seconds(started)}`);
    };
    // Bulk statements run longer than the app's 15 s request limit; the window sums sort millions of rows.
    await sql`set statement_timeout = 0`.execute(conn);
    await sql`set work_mem = '256MB'`.execute(conn);
    await sql`set maintenance_work_mem = '512MB'`.execute(conn);
    const firstNames = sql`${`{${FIRST_NAMES.join(',')}}`}::text[]`;
    const lastNames = sql`${`{${LAST_NAMES.join(',')}}`}::text[]`;
    // Users go in with their triggers on: the admin counters count them.
    await withoutIndexes(conn, ['users'], async () => {
      await step(
        `${CUSTOMERS.toLocaleString('en-US')} users`,
        sql`
          insert into users (email, password_hash, first_name, last_name, phone, address, state, is_email_confirmed, verification_status, is_blocked, created_at)
          select lower(f || '.' || l || '.' || i || '@example.com'), '!bench', f, l,
                 '+1 202 555 ' || lpad((i % 10000)::text, 4, '0'), i || ' Bench Street', 'Ohio', true,
                 case when i % 50 = 0 then 'pending' when i % 3 = 0 then 'awaiting' else 'verified' end,
                 i % 997 = 0,
                 now() - interval '40 days' - make_interval(secs => i)
          from generate_series(1, ${CUSTOMERS}) as i,
               lateral (select (${firstNames})[1 + i % ${FIRST_NAMES.length}] as f, (${lastNames})[1 + (i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] as l) as names`,
      );
    });
    // Customer n (1..CUSTOMERS, oldest first) and the ids their two accounts will have.
    await sql`
      create temporary table bench_customers as
      select row_number() over (order by created_at)::int as n, id as user_id, gen_random_uuid() as savings_id, gen_random_uuid() as checking_id
      from users where password_hash = '!bench'`.execute(conn);
    await sql`alter table bench_customers add primary key (n)`.execute(conn);
    const base = await sql<{ seq: string; cash: string }>`
      select coalesce(max(seq), 0)::bigint as seq, (select id from ledger_accounts where kind = 'bank_cash' and owner_id is null) as cash from journal_entries`.execute(
      conn,
    );
    const seqBase = Number(base.rows[0]?.seq ?? 0);
    const cashId = base.rows[0]?.cash ?? '';
    // An opening deposit per customer from the bank's cash account 31 days ago, then transfers
    // between customers' checking accounts (one in five between own accounts, one in fifty a
    // wire) spread over the 30 days up to a minute ago, numbered in booking order. Accounts are
    // named by customer number here (0: the bank's cash).
    await step(
      `${(CUSTOMERS + TRANSFERS).toLocaleString('en-US')} entries planned`,
      sql`
        create temporary table bench_entries as
        select ${seqBase}::bigint + n as seq, gen_random_uuid() as id, 'opening'::text as kind,
               now() - interval '31 days' + make_interval(secs => n::double precision / ${CUSTOMERS} * 3600) as booked_at,
               500000::bigint as amount, n as debit_n, 0 as credit_n
        from generate_series(1, ${CUSTOMERS}) as n
        union all
        select ${seqBase + CUSTOMERS}::bigint + t, gen_random_uuid(),
               case when t % 50 = 0 then 'wire' when t % 5 = 0 then 'internal' else 'transfer' end,
               now() - interval '30 days' + make_interval(secs => (t::double precision / ${TRANSFERS}) * (30 * 86400 - 60)),
               (100 + (t::bigint * 7919) % 50000)::bigint, 1 + ((t * 31) % ${CUSTOMERS})::int, 1 + ((t * 31 + 1) % ${CUSTOMERS})::int
        from generate_series(1, ${TRANSFERS}::bigint) as t`,
    );
    // Every posting, with its account and the account's balance after it (the running sum in seq order).
    await step(
      'postings planned',
      sql`
        create temporary table bench_postings as
        select s.id, s.seq, s.account_n, s.amount, sum(s.amount) over (partition by s.account_n order by s.seq) as balance_after
        from (select id, seq, debit_n as account_n, amount from bench_entries
              union all select id, seq, credit_n, -amount from bench_entries) s`,
    );
    // The journal's and the accounts' triggers (foreign keys, balance and append-only checks) are
    // skipped while seeding (replica mode), and the secondary indexes are built once at the end:
    // checking millions of rows one by one would dominate the run. The SQL above keeps every
    // entry balanced and every running balance right; the constraints still hold.
    await sql`set session_replication_role = replica`.execute(conn);
    await withoutIndexes(conn, ['ledger_accounts', 'journal_entries', 'postings', 'ledger_unsealed'], async () => {
      await step(
        'their savings and checking accounts',
        sql`
          insert into ledger_accounts (id, number, owner_id, kind, name, balance, created_at)
          select c.savings_id, (1000000000 + 2 * c.n - 1)::text, c.user_id, 'savings', 'Savings', 0, u.created_at
          from bench_customers c join users u on u.id = c.user_id
          union all
          select c.checking_id, (1000000000 + 2 * c.n)::text, c.user_id, 'checking', 'Checking', coalesce(b.balance, 0), u.created_at
          from bench_customers c join users u on u.id = c.user_id
          left join (select account_n, sum(amount) as balance from bench_postings group by account_n) b on b.account_n = c.n`,
      );
      await step(
        'journal entries',
        sql`
          insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
          select id, seq, kind, 'Bench ' || kind, (booked_at at time zone 'UTC')::date, booked_at, amount from bench_entries order by seq`,
      );
      await sql`select setval('journal_entries_seq', ${seqBase + CUSTOMERS + TRANSFERS})`.execute(conn);
      await step(
        'postings',
        sql`
          insert into postings (entry_id, entry_seq, account_id, amount, balance_after)
          select p.id, p.seq, coalesce(c.checking_id, ${cashId}::uuid), p.amount,
                 p.balance_after + case when p.account_n = 0 then (select balance from ledger_accounts where id = ${cashId}::uuid) else 0 end
          from bench_postings p left join bench_customers c on c.n = p.account_n
          order by p.seq`,
      );
      await step(
        "the bank's cash balance",
        sql`update ledger_accounts set balance = balance - ${sql.lit(CUSTOMERS)}::bigint * 500000 where id = ${cashId}::uuid`,
      );
      // Queued for the sealer as the writer queues every entry it commits.
      await step('queued for the sealer', sql`insert into ledger_unsealed (entry_id, seq, booked_at) select id, seq, booked_at from bench_entries`);
    });
    await sql`set session_replication_role = origin`.execute(conn);
    await step('vacuum analyze', sql`vacuum analyze`);
    await sql`create table bench_seed (customers integer not null, transfers integer not null, seeded_at timestamptz not null default now())`.execute(conn);
    await sql`insert into bench_seed (customers, transfers) values (${CUSTOMERS}, ${TRANSFERS})`.execute(conn);
  });
}

async function isSeeded(db: DB): Promise<boolean> {
  const table = await sql<{ found: string | null }>`select to_regclass('bench_seed')::text as found`.execute(db);
  if (!table.rows[0]?.found) return false;
  const row = await sql<{ customers: number; transfers: number }>`select customers, transfers from bench_seed`.execute(db);
  return row.rows[0]?.customers === CUSTOMERS && row.rows[0]?.transfers === TRANSFERS;
}

interface Scenario {
  name: string;
  path: string;
}

/** What staff open, with the parameters a member of staff would type (found in the seeded data). */
async function scenarios(db: DB): Promise<Scenario[]> {
  const sample = await db
    .selectFrom('ledger_accounts')
    .select(['number', 'owner_id'])
    .where('kind', '=', 'checking')
    .where('owner_id', 'is not', null)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const cash = await db.selectFrom('ledger_accounts').select('id').where('kind', '=', 'bank_cash').where('owner_id', 'is', null).executeTakeFirstOrThrow();
  const head = await sql<{ seq: string }>`select max(seq)::bigint as seq from journal_entries`.execute(db);
  const middleSeq = Math.floor(Number(head.rows[0]?.seq ?? 2) / 2);
  const days = await sql<{ first: string; last: string; busiest: string }>`
    select min(day)::text as first, max(day)::text as last,
           (select day::text from trial_balances where day > (select min(day) from trial_balances) order by entries desc, day limit 1) as busiest
    from trial_balances`.execute(db);
  const { first, last, busiest } = days.rows[0] ?? { first: '', last: '', busiest: '' };
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  // A day in the middle of the seeded month, by booking time and by value date.
  const tenDaysAgo = daysAgo(10);
  const dayAfter = daysAgo(9);
  // Ranges longer than two months (daysAgo below): a year that ended before the seeded month (nothing
  // in it, the whole journal newer), and the last 120 days (the seeded month and the empty months before it).
  const list: Scenario[] = [
    { name: 'users list (page 1, newest first)', path: '/api/user/admin?page=1&pageSize=20' },
    { name: 'users list sorted by last name, page 50', path: '/api/user/admin?page=50&pageSize=20&sort=lastName' },
    { name: 'search by last name ("zimmerman")', path: '/api/user/admin?search=zimmerman' },
    { name: 'search by full name ("mary zimmerman")', path: '/api/user/admin?search=mary%20zimmerman' },
    { name: 'search by account number', path: `/api/user/admin?search=${sample.number}` },
    { name: 'dashboard', path: '/api/admin/dashboard' },
    { name: 'journal, newest', path: '/api/admin/journal' },
    { name: 'journal, kind wire', path: '/api/admin/journal?kind=wire' },
    { name: 'journal, one customer', path: `/api/admin/journal?customer=${sample.number}` },
    { name: 'journal, bank cash account, older half', path: `/api/admin/journal?account=${cash.id}&older=${middleSeq}` },
    { name: 'journal, amount $400-$401', path: '/api/admin/journal?amountMin=400&amountMax=401' },
    { name: 'journal, booked on one day 10 days ago', path: `/api/admin/journal?bookedFrom=${tenDaysAgo}T00:00:00.000Z&bookedTo=${dayAfter}T00:00:00.000Z` },
    { name: 'journal, value date 10 days ago', path: `/api/admin/journal?valueFrom=${tenDaysAgo}&valueTo=${tenDaysAgo}` },
    {
      name: 'journal, booked in a year that ended 60 days ago',
      path: `/api/admin/journal?bookedFrom=${daysAgo(425)}T00:00:00.000Z&bookedTo=${daysAgo(60)}T00:00:00.000Z`,
    },
    { name: 'journal, value dates of the last 120 days', path: `/api/admin/journal?valueFrom=${daysAgo(120)}&valueTo=${daysAgo(0)}` },
    { name: 'journal, wires over $400 on one day', path: `/api/admin/journal?kind=wire&amountMin=400&valueFrom=${tenDaysAgo}&valueTo=${tenDaysAgo}` },
    { name: 'trial balance, newest day', path: `/api/admin/reports/trial-balance?date=${last}` },
    { name: `trial balance, opening day, page 1`, path: `/api/admin/reports/trial-balance?date=${first}` },
    { name: `trial balance, opening day, page 1000`, path: `/api/admin/reports/trial-balance?date=${first}&page=1000` },
    { name: 'trial balance, busiest day, page 50', path: `/api/admin/reports/trial-balance?date=${busiest}&page=50` },
  ];
  return list.filter((scenario) => !ONLY || scenario.name.includes(ONLY));
}

async function main(): Promise<void> {
  const started = performance.now();
  const directory = KEEP_DIR ? path.resolve(KEEP_DIR) : fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-admin-'));
  fs.mkdirSync(directory, { recursive: true });
  // Seeding speed only: this database is a benchmark's, never a bank's.
  const server = await startEmbeddedPostgres(path.join(directory, 'pg'), {
    flags: [
      ...[
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'shared_preload_libraries=pg_stat_statements',
        '-c',
        'pg_stat_statements.track_planning=on',
      ],
      ...['-c', 'max_wal_size=4GB', '-c', 'checkpoint_timeout=30min', '-c', 'shared_buffers=512MB'],
    ],
  });
  let closeApp: (() => Promise<void>) | undefined;
  try {
    const databaseName = `bench_admin_${CUSTOMERS}_${TRANSFERS}`;
    await server.createDatabase(databaseName);
    const database = createDatabase(server.url(databaseName), { max: 20 });
    const db = database.db;
    // The embedded server stops at the end; an idle pooled client hearing that is not a failure.
    database.pool.on('error', () => {});
    const migrationsStarted = performance.now();
    await migrateToLatest(db);
    log(`Migrations: ${seconds(migrationsStarted)}`);
    const config = {
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(directory, 'data'), LOG_LEVEL: 'silent', DEMO_MODE: 'true' }),
      rateLimits: false,
    };
    const ctx = createAppContext({ config, db, mailer: createMailer({ from: config.mailFrom }), log: createLogger(config) });
    // A sign-in from a device the bank has not seen queues a notice: the job queue's schema must be there, as the server installs it.
    await installJobSchema(database.pool, ctx.log);

    if (await isSeeded(db)) {
      log(
        `Reusing the database seeded earlier in ${directory} (${CUSTOMERS.toLocaleString('en-US')} customers, ${TRANSFERS.toLocaleString('en-US')} transfers).`,
      );
    } else {
      await seed(ctx);
      log(`Seeding ${CUSTOMERS.toLocaleString('en-US')} customers and ${TRANSFERS.toLocaleString('en-US')} transfers...`);
      const seedStarted = performance.now();
      await seedCustomers(db);
      const counts = await sql<{ users: number; entries: number; postings: number }>`
        select (select count(*)::int from users) as users, (select count(*)::int from journal_entries) as entries, (select count(*)::int from postings) as postings`.execute(
        db,
      );
      const row = counts.rows[0];
      log(`Seeded in ${seconds(seedStarted)}: ${row?.users} users, ${row?.entries} journal entries, ${row?.postings} postings.`);
    }
    // The end-of-day job, as the worker runs it: every ended bank day gets its stored trial balance.
    const closeStarted = performance.now();
    let closedDays = 0;
    for (;;) {
      const closed = await closeEndedDays(ctx);
      closedDays += closed.length;
      if (closed.length === 0) break;
    }
    log(`End of day: ${closedDays} days closed in ${seconds(closeStarted)}.`);
    // Statistics for the report's plans; after a long close it may wait on autovacuum: no timeout.
    await db.connection().execute(async (connection) => {
      await sql`set statement_timeout = 0`.execute(connection);
      await sql`analyze trial_balance_lines`.execute(connection);
    });
    if (process.env.BENCH_VERIFY === '1') {
      const sealStarted = performance.now();
      const sealed = await sealAll(db);
      log(`Sealer: ${sealed} entries chained in ${seconds(sealStarted)}.`);
      const verifyStarted = performance.now();
      const verified = await verifyLedger(db);
      log(
        `Ledger verification: ${verified.ok ? `ok, ${verified.entries} entries, ${verified.sealed} sealed, ${verified.unsealed} unsealed` : `FAILED: ${verified.problem}`} (${seconds(verifyStarted)}).`,
      );
      if (!verified.ok) process.exitCode = 1;
    }

    // The app runs in its own process, as in production: the load generator here must not share
    // its event loop.
    const child = fork(path.resolve('bench/admin-server.ts'), [], {
      // BENCH_PROFILE=<directory> writes a V8 CPU profile of the app there.
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
      env: { ...process.env, BENCH_DATABASE_URL: server.url(databaseName), BENCH_DATA_DIR: path.join(directory, 'data') },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve((message as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`the app exited with code ${code}`)));
    });
    const appCpuMicros = () =>
      new Promise<number>((resolve) => {
        const listener = (message: unknown) => {
          if (typeof message === 'object' && message !== null && 'cpuMicros' in message) {
            child.off('message', listener);
            resolve((message as { cpuMicros: number }).cpuMicros);
          }
        };
        child.on('message', listener);
        child.send('cpu');
      });
    closeApp = async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await database.close();
    };
    const base = `http://127.0.0.1:${port}`;

    // Staff sign in with the password, then the code of their authenticator (the demo admin's secret, ADR 011).
    const signIn = await fetch(`${base}/api/auth/admin/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: config.adminEmail ?? 'admin@example.com', password: config.adminPassword ?? DEMO_ADMIN_PASSWORD }),
    });
    if (signIn.status !== 200) throw new Error(`staff sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const ticket = ((await signIn.json()) as { data: { secondFactor: { ticket: string } } }).data.secondFactor.ticket;
    const secondStep = await fetch(`${base}/api/auth/admin/signin/totp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket, code: totpCodeAt(firstAdminTotpSecret(config) ?? DEMO_ADMIN_TOTP_SECRET, new Date()) }),
    });
    if (secondStep.status !== 200) throw new Error(`staff sign-in failed: ${await secondStep.text()}`);
    const token = ((await secondStep.json()) as { data: { token: string } }).data.token;
    const list = await scenarios(db);
    // Server-side time per request (pg_stat_statements), to tell database work from the rest.
    await sql`create extension if not exists pg_stat_statements`.execute(db);
    const results: Array<{
      name: string;
      requests: number;
      perSecond: number;
      p50: number;
      p99: number;
      errors: number;
      databaseMs: number;
      planMs: number;
      appCpuMs: number;
    }> = [];
    for (const scenario of list) {
      const check = await fetch(`${base}${scenario.path}`, { headers: { authorization: `Bearer ${token}` } });
      if (check.status !== 200) {
        // Still measured (every answer counts as an error): a timeout is a result, not a crash of the bench.
        log(`${scenario.name}: ${scenario.path} answered ${check.status}: ${(await check.text()).slice(0, 200)}`);
      }
      const body = (check.status === 200 ? await check.json() : { data: {} }) as {
        data: { total?: number; customers?: number; items?: unknown[]; lines?: unknown[] };
      };
      const found =
        body.data.total !== undefined
          ? `${body.data.total} matches`
          : body.data.items
            ? `${body.data.items.length} entries on the page`
            : `${body.data.customers} customers`;
      log(`Running: ${scenario.name} (${found}), ${CONNECTIONS} clients, ${SECONDS} s`);
      // Warm-up (not measured): JIT, plan caches and the pool's connections.
      await autocannon({ url: `${base}${scenario.path}`, connections: CONNECTIONS, duration: 2, headers: { authorization: `Bearer ${token}` } });
      await sql`select pg_stat_statements_reset()`.execute(db);
      const cpuBefore = await appCpuMicros();
      const result = await autocannon({
        url: `${base}${scenario.path}`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${token}` },
      });
      const statements = await sql<{
        total_ms: number;
        plan_ms: number;
      }>`select coalesce(sum(total_exec_time), 0)::float8 as total_ms, coalesce(sum(total_plan_time), 0)::float8 as plan_ms
         from pg_stat_statements where query not like '%pg_stat_statements%'`.execute(db);
      if (process.env.BENCH_STATEMENTS === '1') {
        const top = await sql<{ calls: number; plans: number; exec_ms: number; plan_ms: number; query: string }>`
          select calls::int, plans::int, (total_exec_time / greatest(calls, 1))::float8 as exec_ms,
            (total_plan_time / greatest(calls, 1))::float8 as plan_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as query
          from pg_stat_statements where query not like '%pg_stat_statements%'
          order by total_exec_time + total_plan_time desc limit 4`.execute(db);
        for (const row of top.rows) {
          log(`  ${row.calls} calls, ${row.plans} plans, exec ${row.exec_ms.toFixed(3)} ms, plan ${row.plan_ms.toFixed(3)} ms: ${row.query}`);
        }
      }
      const databaseMs = (statements.rows[0]?.total_ms ?? 0) / Math.max(1, result.requests.total);
      const planMs = (statements.rows[0]?.plan_ms ?? 0) / Math.max(1, result.requests.total);
      const appCpuMs = ((await appCpuMicros()) - cpuBefore) / 1000 / Math.max(1, result.requests.total);
      results.push({
        name: scenario.name,
        requests: result.requests.total,
        perSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
        databaseMs,
        planMs,
        appCpuMs,
      });
    }

    log('');
    log(`Admin back office, ${CUSTOMERS.toLocaleString('en-US')} customers, ${CONNECTIONS} concurrent clients (target p99 < ${P99_TARGET_MS} ms)`);
    log(
      `${'scenario'.padEnd(46)} ${'requests'.padStart(9)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'db ms/req'.padStart(10)} ${'plan ms/req'.padStart(12)} ${'app cpu ms/req'.padStart(15)} ${'errors'.padStart(7)}  result`,
    );
    let failed = false;
    for (const row of results) {
      const ok = row.p99 < P99_TARGET_MS && row.errors === 0;
      failed ||= !ok;
      log(
        `${row.name.padEnd(46)} ${String(row.requests).padStart(9)} ${row.perSecond.toFixed(0).padStart(7)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${row.databaseMs.toFixed(2).padStart(10)} ${row.planMs.toFixed(2).padStart(12)} ${row.appCpuMs.toFixed(2).padStart(15)} ${String(row.errors).padStart(7)}  ${ok ? 'ok' : 'OVER TARGET'}`,
      );
    }
    log(
      'db ms/req: executor time in PostgreSQL per request (pg_stat_statements); plan ms/req: time spent planning statements per request; app cpu ms/req: CPU the app process used per request.',
    );
    const load = os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    log(
      `\nTotal time ${((performance.now() - started) / 1000).toFixed(0)} s. Machine: ${os.cpus().length} cores, load average ${load} (other work on the machine inflates the tail).`,
    );
    process.exitCode = failed ? 1 : 0;
  } finally {
    await closeApp?.();
    await server.stop();
    if (!KEEP_DIR) fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
