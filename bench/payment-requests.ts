/**
 * npm run bench:payment-requests: does POST /api/payment-requests take longer when `to` is a
 * customer than when it is nobody (ADR 020)? Starts its own embedded PostgreSQL in a temporary
 * directory, migrates and seeds the demo, builds the app in this process, and sends BENCH_RUNS
 * (default 400) requests of each kind, interleaved (a customer's email, a stranger's email, a
 * customer's account number, an unused account number), through app.inject (no network: only the
 * bank's own work is timed). Prints p50/p90/p99 and the mean per kind, and the differences from the
 * customer's email. Bounded: about 10-30 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { createAppContext } from '../src/server/context';
import { createDatabase } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { migrateToLatest } from '../src/server/db/migrate';
import { installJobSchema } from '../src/server/jobs/runner';
import { generateAccountNumber } from '../src/server/ledger/accounts';
import { createLogger } from '../src/server/lib/logger';
import { createMailer } from '../src/server/mail/mailer';
import { DEMO_CUSTOMER_PASSWORD, seed } from '../src/server/seed';

const RUNS = Number(process.env.BENCH_RUNS ?? 400);
const WARM_UP = 50;
const log = (line: string) => process.stdout.write(`${line}\n`);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-requests-'));
  const server = await startEmbeddedPostgres(path.join(directory, 'pg'));
  try {
    await server.createDatabase('bench_requests');
    const database = createDatabase(server.url('bench_requests'), { max: 10 });
    database.pool.on('error', () => {});
    await migrateToLatest(database.db);
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(directory, 'data'), LOG_LEVEL: 'silent', DEMO_MODE: 'true' }), rateLimits: false };
    const logger = createLogger(config);
    await installJobSchema(database.pool, logger);
    const context = createAppContext({ config, db: database.db, mailer: createMailer({ from: config.mailFrom }), log: logger });
    await seed(context);
    const app = await buildApp(context);
    await app.ready();
    const signIn = async (email: string) => {
      const response = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: DEMO_CUSTOMER_PASSWORD } });
      return response.json() as { data: { token: string; user: { account: { number: string } } } };
    };
    const alex = await signIn('alex.morgan@example.com');
    const jamie = await signIn('jamie.lee@example.com');
    let unused = generateAccountNumber();
    while (unused === jamie.data.user.account.number || unused === alex.data.user.account.number) unused = generateAccountNumber();
    const kinds: Array<[string, string]> = [
      ['a customer (email)', 'jamie.lee@example.com'],
      ['nobody (email)', 'nobody.here@example.com'],
      ['a customer (account number)', jamie.data.user.account.number],
      ['nobody (account number)', unused],
    ];
    const timings = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
    for (let run = 0; run < WARM_UP + RUNS; run += 1) {
      for (const [name, to] of kinds) {
        const started = process.hrtime.bigint();
        const response = await app.inject({
          method: 'POST',
          url: '/api/payment-requests',
          headers: { authorization: `Bearer ${alex.data.token}` },
          payload: { to, amount: 1, note: 'bench' },
        });
        const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
        if (response.statusCode !== 201) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
        if (run >= WARM_UP) timings.get(name)?.push(elapsedMs);
      }
    }
    await app.close();
    await database.close();

    const rows = kinds.map(([name]) => {
      const sorted = [...(timings.get(name) ?? [])].sort((a, b) => a - b);
      const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
      return { name, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), mean };
    });
    const base = rows[0]!;
    log(`POST /api/payment-requests, ${RUNS} requests of each kind (after ${WARM_UP} warm-up rounds), interleaved, in-process (app.inject):`);
    log('');
    log(`| to names                    |  p50 ms |  p90 ms |  p99 ms | mean ms | mean - customer's email |`);
    log(`|-----------------------------|--------:|--------:|--------:|--------:|------------------------:|`);
    for (const row of rows)
      log(
        `| ${row.name.padEnd(27)} | ${row.p50.toFixed(2).padStart(7)} | ${row.p90.toFixed(2).padStart(7)} | ${row.p99.toFixed(2).padStart(7)} | ${row.mean.toFixed(2).padStart(7)} | ${(row.mean - base.mean).toFixed(2).padStart(20)} ms |`,
      );
  } finally {
    await server.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
