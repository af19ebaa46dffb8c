/**
 * npm run bench:history: the customer's history search on a long history, before and after
 * migration 2026-11-26-63b (trigram indexes, then word indexes), in one run.
 *
 * Starts its own embedded PostgreSQL in a temporary directory with two databases: "before"
 * migrated up to the migration before 2026-11-26-63b (the four trigram indexes of migration 31,
 * searched with ILIKE) and
 * "after" migrated to the latest (the word indexes, searched with history_query()). Each gets, by
 * SQL, one customer with BENCH_LINES (default 100,000) lines on checking among BENCH_OTHERS
 * (default 200,000) lines of other customers. Then each search runs BENCH_RUNS times on each,
 * alternating: the two statements GET /api/transaction runs (page 1 and its total), by SQL, the
 * same on both but for the words' subquery. It prints p50/p99 per search and database, then the
 * EXPLAIN ANALYZE of both statements of a rare and a common payee's search on each. Bounded: seeding takes about 10-60 s a database.
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
import { migrations } from '../src/server/db/migrations/index';
import { ensureBankAccounts } from '../src/server/ledger/accounts';
import { listTransactions, type ListFilter } from '../src/server/transactions/repository';

/** The migration before the history's words (migration 63b): the trigram indexes. */
const LAST_BEFORE = Object.keys(migrations)[Object.keys(migrations).indexOf('2026-11-26-63b-history-words') - 1] as string;

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

/** The customer's account ids, as the repository passes them (values). */
async function accountIdsOf(db: DB, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', 'in', ['savings', 'checking']).execute();
  return rows.map((row) => row.id);
}

/**
 * The page and count statements the repository runs for a customer (amount filters as it writes
 * them), by SQL so both schemas run the same text but for the words' subquery: main's before
 * migration 63b (ILIKE '%words%' on each column, one union branch per trigram index) or the
 * repository's now (history_query() against each table's word index).
 */
function statements(schema: 'before' | 'after', accountIds: string[], filter: ListFilter) {
  const ids = sql.join(accountIds);
  const where = [sql`p.account_id in (${ids})`];
  if (filter.amountMin !== undefined) where.push(sql`abs(p.amount) >= ${filter.amountMin}`);
  if (filter.amountMax !== undefined) where.push(sql`abs(p.amount) <= ${filter.amountMax}`);
  if (filter.q && schema === 'before') {
    const pattern = `%${filter.q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    where.push(sql`p.id in (
      select p1.id from postings p1 where (p1.memo ilike ${pattern} or p1.counterparty ilike ${pattern}) and p1.account_id in (${ids})
      union
      select p2.id from postings p2 join journal_entries e2 on e2.id = p2.entry_id where e2.description ilike ${pattern} and p2.account_id in (${ids})
      union
      select p3.id from postings p3 join entry_notes n3 on n3.entry_id = p3.entry_id where n3.description ilike ${pattern} and p3.account_id in (${ids}))`);
  }
  if (filter.q && schema === 'after') {
    const query = sql`history_query(${filter.q})`;
    where.push(sql`p.id in (
      select p1.id from postings p1 where history_words(coalesce(p1.memo, '') || ' ' || coalesce(p1.counterparty, '')) @@ ${query} and p1.account_id in (${ids})
      union
      select p2.id from postings p2 join journal_entries e2 on e2.id = p2.entry_id where history_words(e2.description) @@ ${query} and p2.account_id in (${ids})
      union
      select p3.id from postings p3 join entry_notes n3 on n3.entry_id = p3.entry_id where history_words(n3.description) @@ ${query} and p3.account_id in (${ids}))`);
  }
  const conditions = sql.join(where, sql` and `);
  return {
    page: sql`
      select p.id, p.amount, p.memo, p.counterparty, a.kind, e.description, e.value_date, r.id as reversed_by,
             (select n.description from entry_notes n where n.entry_id = e.id order by n.id desc limit 1) as note
      from postings p join ledger_accounts a on a.id = p.account_id join journal_entries e on e.id = p.entry_id
      left join journal_entries r on r.reversal_of = e.id join users u on u.id = a.owner_id
      where ${conditions} order by p.entry_seq desc, a.kind limit ${filter.pageSize} offset 0`,
    count: sql<{ total: string }>`select count(*) as total from postings p where ${conditions}`,
  };
}

async function search(schema: 'before' | 'after', db: DB, accountIds: string[], filter: ListFilter): Promise<number> {
  const { page, count } = statements(schema, accountIds, filter);
  const [, counted] = await Promise.all([page.execute(db), count.execute(db)]);
  return Number(counted.rows[0]?.total ?? 0);
}

interface Timed {
  times: number[];
  total: number;
}

async function timeOnce(into: Timed, run: () => Promise<number>, warm: boolean): Promise<void> {
  const started = performance.now();
  into.total = await run();
  if (!warm) into.times.push(performance.now() - started);
}

function percentiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-history-'));
  const server = await startEmbeddedPostgres(path.join(directory, 'pg'), { flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] });
  try {
    const banks: Array<{ name: 'before' | 'after'; db: DB; close: () => Promise<void>; userId: string; accountIds: string[] }> = [];
    for (const [name, last] of [
      ['before', LAST_BEFORE],
      ['after', null],
    ] as const) {
      await server.createDatabase(name);
      const database = createDatabase(server.url(name), { max: 4 });
      database.pool.on('error', () => {});
      await migrateToLatest(database.db, { upTo: last });
      const seedStarted = performance.now();
      const userId = await seedHistory(database.db);
      log(
        `${name}: seeded ${LINES.toLocaleString('en-US')} lines for one customer among ${OTHERS.toLocaleString('en-US')} others in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s.`,
      );
      banks.push({ name, db: database.db, close: () => database.close(), userId, accountIds: await accountIdsOf(database.db, userId) });
    }
    if (process.env.BENCH_KEEP) {
      // For looking at plans by hand: the databases stay up until Ctrl-C.
      for (const bank of banks) log(`Keeping ${server.url(bank.name)} (customer ${bank.userId}) until interrupted.`);
      await new Promise((resolve) => process.once('SIGINT', resolve));
    }
    const base = { page: 1, pageSize: 20, q: undefined, amountMin: undefined, amountMax: undefined };
    const scenarios: Array<{ name: string; filter: Omit<ListFilter, 'userId'> }> = [
      { name: 'no filter (page 1 and total)', filter: base },
      { name: 'payee, common ("grocer", 1 in 8)', filter: { ...base, q: 'grocer' } },
      { name: 'payee, rare ("rocket", 1 in 4,000)', filter: { ...base, q: 'rocket' } },
      { name: 'two words ("rare rocket")', filter: { ...base, q: 'rare rocket' } },
      { name: 'words, none match ("xylophone")', filter: { ...base, q: 'xylophone' } },
      { name: 'amount range $500.00-$510.00', filter: { ...base, amountMin: 50_000, amountMax: 51_000 } },
      { name: 'payee and amount ("dental", >= $800)', filter: { ...base, q: 'dental', amountMin: 80_000 } },
    ];
    log('');
    log(
      `History search, one customer with ${LINES.toLocaleString('en-US')} lines, ${RUNS} runs each alternating before/after (page of 20 and its total; target p99 < ${P99_TARGET_MS} ms); load average ${os.loadavg()[0]?.toFixed(1)}, ${os.cpus().length} cores`,
    );
    log(`${'search'.padEnd(40)} ${'schema'.padEnd(28)} ${'matches'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  result`);
    for (const scenario of scenarios) {
      const timed = new Map(banks.map((bank) => [bank.name, { times: [], total: 0 } as Timed]));
      for (let run = 0; run < RUNS + 3; run += 1) {
        for (const bank of run % 2 === 0 ? banks : [...banks].reverse()) {
          const filter: ListFilter = { ...scenario.filter, userId: bank.userId };
          const into = timed.get(bank.name) as Timed;
          await timeOnce(into, () => search(bank.name, bank.db, bank.accountIds, filter), run < 3);
        }
      }
      // The bench's statements answer what the repository answers (GET /api/transaction).
      const after = banks.find((bank) => bank.name === 'after');
      if (after) {
        const answered = (await listTransactions(after.db, { ...scenario.filter, userId: after.userId })).total;
        if (answered !== timed.get('after')?.total)
          throw new Error(`${scenario.name}: the repository answers ${answered}, the bench ${timed.get('after')?.total}`);
      }
      for (const bank of banks) {
        const { total, times } = timed.get(bank.name) as Timed;
        const { p50, p99 } = percentiles(times);
        const variant = bank.name === 'before' ? 'before (trigrams, ILIKE)' : 'after (words, migration 63b)';
        log(
          `${scenario.name.padEnd(40)} ${variant.padEnd(28)} ${String(total).padStart(8)} ${p50.toFixed(1).padStart(8)} ${p99.toFixed(1).padStart(8)}  ${p99 < P99_TARGET_MS ? 'ok' : 'OVER TARGET'}`,
        );
      }
    }
    // The statements of a rare and a common payee's search, as each schema runs them.
    for (const q of ['rocket', 'grocer']) {
      for (const bank of banks) {
        const { page, count } = statements(bank.name, bank.accountIds, { ...base, userId: bank.userId, q });
        for (const [what, statement] of [
          ['total', count],
          ['page', page],
        ] as const) {
          const plan = await sql<{ 'QUERY PLAN': string }>`explain (analyze, costs off, buffers off) ${statement}`.execute(bank.db);
          log('');
          log(`EXPLAIN ANALYZE, ${bank.name}: the ${what} of the search "${q}"`);
          for (const row of plan.rows) log(row['QUERY PLAN']);
        }
      }
    }
    for (const bank of banks) await bank.close();
  } finally {
    await server.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
