/**
 * npm run bench:db-transport: what one query costs the app over loopback TCP and over PostgreSQL's
 * Unix socket, on this machine (ADR 027: the embedded PostgreSQL is reached through its socket).
 *
 * Starts its own embedded PostgreSQL in a temporary directory, then runs BENCH_QUERIES (default
 * 24,000) small prepared queries from 8 concurrent node-postgres clients over each transport, in
 * turn, BENCH_ROUNDS (default 3) times, and prints queries per second and the app's CPU per query
 * (user and system). Compare the two within one run: figures on a shared 2-core machine are noisy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/server/db/embedded';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 24_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = 8;

interface Row {
  transport: string;
  perSecond: number;
  cpuMicros: number;
  systemMicros: number;
}

async function measure(transport: string, connectionString: string): Promise<Row> {
  const pool = new pg.Pool({ connectionString, max: CLIENTS });
  const work = async (count: number) => {
    for (let index = 0; index < count; index++) {
      await pool.query({ name: 'bench', text: 'select $1::int as n, now() as at', values: [index] });
    }
  };
  const all = () => Promise.all(Array.from({ length: CLIENTS }, () => work(QUERIES / CLIENTS)));
  await all(); // warm-up: connections, prepared statements, JIT
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await all();
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await pool.end();
  return { transport, perSecond: (QUERIES / elapsed) * 1000, cpuMicros: (cpu.user + cpu.system) / QUERIES, systemMicros: cpu.system / QUERIES };
}

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-transport-'));
  const server = await startEmbeddedPostgres(path.join(directory, 'pg'));
  try {
    await server.createDatabase('bench_transport');
    const socketUrl = server.url('bench_transport');
    const tcpUrl = socketUrl.replace(/@%2F[^:]*:/, '@127.0.0.1:');
    if (socketUrl === tcpUrl) throw new Error(`the embedded PostgreSQL's URL names no socket: ${socketUrl}`);
    const rows: Row[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rows.push(await measure('loopback TCP', tcpUrl));
      rows.push(await measure('Unix socket', socketUrl));
    }
    console.log(`\n${QUERIES.toLocaleString('en-US')} prepared queries from ${CLIENTS} clients per run, ${ROUNDS} rounds (app = this process)`);
    console.log(`${'transport'.padEnd(14)} ${'queries/s'.padStart(10)} ${'app cpu us/query'.padStart(17)} ${'of it system'.padStart(13)}`);
    for (const row of rows) {
      console.log(
        `${row.transport.padEnd(14)} ${row.perSecond.toFixed(0).padStart(10)} ${row.cpuMicros.toFixed(1).padStart(17)} ${row.systemMicros.toFixed(1).padStart(13)}`,
      );
    }
    const mean = (transport: string, pick: (row: Row) => number) => {
      const picked = rows.filter((row) => row.transport === transport).map(pick);
      return picked.reduce((sum, value) => sum + value, 0) / picked.length;
    };
    console.log(
      `\nUnix socket vs TCP: ${(mean('Unix socket', (row) => row.perSecond) / mean('loopback TCP', (row) => row.perSecond)).toFixed(2)}x the queries per second, ` +
        `${(mean('Unix socket', (row) => row.cpuMicros) / mean('loopback TCP', (row) => row.cpuMicros)).toFixed(2)}x the app's CPU per query. Load average ${os
          .loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}.`,
    );
  } finally {
    await server.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
