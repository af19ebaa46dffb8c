/**
 * npm run bench:admin: the back office with 100,000 customers.
 *
 * Starts its own embedded PostgreSQL in a temporary directory, seeds a fresh database with
 * generate_series (100,000 customers, their accounts, an opening deposit each and 30 days of
 * transfers), starts the real app in its own process on loopback and measures, at 16 concurrent clients with
 * autocannon: the users list, a search, and the dashboard. Prints p50/p99 and whether p99 stays
 * under the 50 ms target. Bounded: seeding takes 20-40 s, each run a 2 s warm-up plus BENCH_SECONDS (default 10).
 *
 * The seeded journal is written with SQL for speed: its hash chain is not computed, so this
 * throwaway database would fail `ledger verify`. Postings still sum to zero per entry and the
 * stored balances equal their postings, which is all the read paths measured here rely on.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../src/server/config';
import { createDatabase } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { migrateToLatest } from '../src/server/db/migrate';
import { DEMO_ADMIN_PASSWORD, seed } from '../src/server/seed';
import { createAppContext } from '../src/server/context';
import { createLogger } from '../src/server/lib/logger';
import { createMailer } from '../src/server/mail/mailer';
import { DEMO_ADMIN_TOTP_SECRET, firstAdminTotpSecret, totpCodeAt } from '../src/server/factors/totp';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 150_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
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

async function main(): Promise<void> {
  const started = performance.now();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-admin-'));
  // Seeding speed only: this database is thrown away at the end.
  const server = await startEmbeddedPostgres(path.join(directory, 'pg'), {
    flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'shared_preload_libraries=pg_stat_statements'],
  });
  let closeApp: (() => Promise<void>) | undefined;
  try {
    await server.createDatabase('bench_admin');
    const database = createDatabase(server.url('bench_admin'), { max: 20 });
    const db = database.db;
    // The embedded server stops at the end; an idle pooled client hearing that is not a failure.
    database.pool.on('error', () => {});
    await migrateToLatest(db);
    const config = {
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(directory, 'data'), LOG_LEVEL: 'silent', DEMO_MODE: 'true' }),
      rateLimits: false,
    };
    await seed(createAppContext({ config, db, mailer: createMailer({ from: config.mailFrom }), log: createLogger(config) }));

    log(`Seeding ${CUSTOMERS.toLocaleString('en-US')} customers and ${TRANSFERS.toLocaleString('en-US')} transfers...`);
    const seedStarted = performance.now();
    // One connection: the temporary tables and the replication role below are per session.
    await db.connection().execute(async (conn) => {
      // Bulk seeding statements may run longer than the app's 15 s request limit on a busy machine.
      await sql`set statement_timeout = 0`.execute(conn);
      const firstNames = sql`${`{${FIRST_NAMES.join(',')}}`}::text[]`;
      const lastNames = sql`${`{${LAST_NAMES.join(',')}}`}::text[]`;
      await sql`
        insert into users (email, password_hash, first_name, last_name, phone, address, state, is_email_confirmed, verification_status, is_blocked, created_at)
        select lower(f || '.' || l || '.' || i || '@example.com'), '!bench', f, l,
               '+1 202 555 ' || lpad((i % 10000)::text, 4, '0'), i || ' Bench Street', 'Ohio', true,
               case when i % 50 = 0 then 'pending' when i % 3 = 0 then 'awaiting' else 'verified' end,
               i % 997 = 0,
               now() - make_interval(mins => i)
        from generate_series(1, ${CUSTOMERS}) as i,
             lateral (select (${firstNames})[1 + i % ${FIRST_NAMES.length}] as f, (${lastNames})[1 + (i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] as l) as names`.execute(
        conn,
      );
      await sql`
        insert into ledger_accounts (number, owner_id, kind, name)
        select (1000000000 + row_number() over (order by u.created_at))::text, u.id, k.kind, initcap(k.kind)
        from users u cross join (values ('savings'), ('checking')) as k(kind)
        where u.password_hash = '!bench'`.execute(conn);

      // An opening deposit per customer (from the bank's cash account), then transfers between
      // customers' checking accounts spread over the last 30 days.
      await sql`
        create temporary table bench_customers as
        select row_number() over (order by owner_id)::int as n, id from ledger_accounts where kind = 'checking' and owner_id is not null`.execute(conn);
      await sql`alter table bench_customers add primary key (n)`.execute(conn);
      await sql`
        create temporary table bench_entries as
        select gen_random_uuid() as id, 'opening'::text as kind, now() - interval '31 days' as booked_at, 500000::bigint as amount,
               c.id as debit_account, (select id from ledger_accounts where kind = 'bank_cash' and owner_id is null) as credit_account, c.n::bigint as seq_hint
        from bench_customers c
        union all
        select gen_random_uuid(), case when t % 5 = 0 then 'internal' else 'transfer' end,
               now() - make_interval(secs => (t::double precision / ${TRANSFERS}) * 30 * 86400),
               (100 + (t::bigint * 7919) % 50000)::bigint, a.id, b.id, ${CUSTOMERS} + t
        from generate_series(1, ${TRANSFERS}) as t
        join bench_customers a on a.n = 1 + (t * 31) % ${CUSTOMERS}
        join bench_customers b on b.n = 1 + (t * 31 + 1) % ${CUSTOMERS}`.execute(conn);
      // The journal's balance and append-only triggers are skipped while seeding (replica mode):
      // checking 450,000 rows one by one would dominate the run. The SQL below keeps every entry balanced.
      await sql`set session_replication_role = replica`.execute(conn);
      await sql`
        insert into journal_entries (id, seq, kind, description, value_date, booked_at, amount)
        select id, nextval('journal_entries_seq'), kind, 'Bench ' || kind, (booked_at at time zone 'UTC')::date, booked_at, amount
        from (select * from bench_entries order by seq_hint) as ordered`.execute(conn);
      await sql`
        insert into postings (entry_id, entry_seq, account_id, amount, balance_after)
        select e.id, j.seq, e.debit_account, e.amount, 0 from bench_entries e join journal_entries j on j.id = e.id
        union all
        select e.id, j.seq, e.credit_account, -e.amount, 0 from bench_entries e join journal_entries j on j.id = e.id`.execute(conn);
      await sql`
        update ledger_accounts a set balance = s.total
        from (select account_id, sum(amount) as total from postings group by account_id) s
        where a.id = s.account_id`.execute(conn);
      await sql`set session_replication_role = origin`.execute(conn);
      await sql`vacuum analyze`.execute(conn);
      await sql`reset statement_timeout`.execute(conn);
    });
    const counts = await sql<{
      users: number;
      entries: number;
    }>`select (select count(*)::int from users) as users, (select count(*)::int from journal_entries) as entries`.execute(db);
    log(`Seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: ${counts.rows[0]?.users} users, ${counts.rows[0]?.entries} journal entries.`);

    // The app runs in its own process, as in production: the load generator here must not share
    // its event loop.
    const child = fork(path.resolve('bench/admin-server.ts'), [], {
      // BENCH_PROFILE=<directory> writes a V8 CPU profile of the app there.
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
      env: { ...process.env, BENCH_DATABASE_URL: server.url('bench_admin'), BENCH_DATA_DIR: path.join(directory, 'data') },
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
    const ticket = ((await signIn.json()) as { data: { secondFactor: { ticket: string } } }).data.secondFactor.ticket;
    const secondStep = await fetch(`${base}/api/auth/admin/signin/totp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket, code: totpCodeAt(firstAdminTotpSecret(config) ?? DEMO_ADMIN_TOTP_SECRET, new Date()) }),
    });
    if (secondStep.status !== 200) throw new Error(`staff sign-in failed: ${await secondStep.text()}`);
    const token = ((await secondStep.json()) as { data: { token: string } }).data.token;
    const sample = await db
      .selectFrom('ledger_accounts')
      .select('number')
      .where('kind', '=', 'checking')
      .where('owner_id', 'is not', null)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();

    const scenarios = [
      { name: 'users list (page 1, newest first)', path: '/api/user/admin?page=1&pageSize=20' },
      { name: 'users list sorted by last name, page 50', path: '/api/user/admin?page=50&pageSize=20&sort=lastName' },
      { name: 'search by last name ("zimmerman")', path: '/api/user/admin?search=zimmerman' },
      { name: 'search by account number', path: `/api/user/admin?search=${sample.number}` },
      { name: 'dashboard', path: '/api/admin/dashboard' },
    ];
    // Server-side time per request (pg_stat_statements), to tell database work from the rest.
    await sql`create extension if not exists pg_stat_statements`.execute(db);
    const results: Array<{ name: string; requests: number; p50: number; p99: number; errors: number; databaseMs: number; appCpuMs: number }> = [];
    for (const scenario of scenarios) {
      const check = await fetch(`${base}${scenario.path}`, { headers: { authorization: `Bearer ${token}` } });
      if (check.status !== 200) throw new Error(`${scenario.path} answered ${check.status}: ${await check.text()}`);
      const body = (await check.json()) as { data: { total?: number; customers?: number } };
      log(
        `Running: ${scenario.name} (${body.data.total !== undefined ? `${body.data.total} matches` : `${body.data.customers} customers`}), ${CONNECTIONS} clients, ${SECONDS} s`,
      );
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
      }>`select coalesce(sum(total_exec_time), 0)::float8 as total_ms from pg_stat_statements where query not like '%pg_stat_statements%'`.execute(db);
      const databaseMs = (statements.rows[0]?.total_ms ?? 0) / Math.max(1, result.requests.total);
      const appCpuMs = ((await appCpuMicros()) - cpuBefore) / 1000 / Math.max(1, result.requests.total);
      results.push({
        name: scenario.name,
        requests: result.requests.total,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
        databaseMs,
        appCpuMs,
      });
    }

    log('');
    log(`Admin back office, ${CUSTOMERS.toLocaleString('en-US')} customers, ${CONNECTIONS} concurrent clients (target p99 < ${P99_TARGET_MS} ms)`);
    log(
      `${'scenario'.padEnd(42)} ${'requests'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'db ms/req'.padStart(10)} ${'app cpu ms/req'.padStart(15)} ${'errors'.padStart(7)}  result`,
    );
    let failed = false;
    for (const row of results) {
      const ok = row.p99 < P99_TARGET_MS && row.errors === 0;
      failed ||= !ok;
      log(
        `${row.name.padEnd(42)} ${String(row.requests).padStart(9)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${row.databaseMs.toFixed(2).padStart(10)} ${row.appCpuMs.toFixed(2).padStart(15)} ${String(row.errors).padStart(7)}  ${ok ? 'ok' : 'OVER TARGET'}`,
      );
    }
    log('db ms/req: executor time in PostgreSQL per request (pg_stat_statements); app cpu ms/req: CPU the app process used per request.');
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
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
