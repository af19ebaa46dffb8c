// `npm run bench:transfers`: internal transfers per second through the HTTP API with signed-in
// customers at 8 and 32 concurrent clients (p50/p99 latency), and pgbench's TPC-B-like rate on the
// same PostgreSQL with the same client counts, printed as a table with the ratio; then bulk payments
// (BENCH_BULK_ROWS payments a request, BENCH_BULK_CLIENTS clients, each batch approved with the IMS
// code the bank mailed, read from the SMTP sink) next to both. Loopback only,
// bounded in time (BENCH_SECONDS per run, default 10), durable PostgreSQL settings (fsync on).
// BENCH_PROCESSES (default 1,2) is the process counts in order; 1,2,1,2,1,2 alternates them and
// prints the medians, each row compared with the one-process round just before it.
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { hashPassword } from '../src/server/auth/crypto';
import { createSession } from '../src/server/auth/sessions';
import { systemClock } from '../src/server/context';
import { createDatabase } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { openCustomerAccounts } from '../src/server/ledger/accounts';
import { bankAccountId, postEntries } from '../src/server/ledger/posting';
import { describeVerifyResult, verifyLedger } from '../src/server/ledger/verify';
import { newSigningKeyPem } from '../src/server/signing/keys';
import { ZInternalTransferRequest, ZTransactionAnswer } from '../src/shared/contracts/transactions';
import { serveFlags, startBank, stopBank, waitForHealth } from './bank';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENT_COUNTS = (process.env.BENCH_CLIENTS ?? '8,32').split(',').map(Number);
const PORT = Number(process.env.E2E_PORT ?? process.env.BENCH_PORT ?? 3101);
const PGBENCH_SCALE = Number(process.env.PGBENCH_SCALE ?? 32);
/** App process counts to measure, one server start each (WEB_CONCURRENCY). */
const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
/** Payments per bulk request, and the clients sending bulk requests at once. */
const BULK_ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1000);
const BULK_CLIENTS = Number(process.env.BENCH_BULK_CLIENTS ?? 8);

function pgbenchBinary(): string | null {
  const installed = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql') : [];
  for (const candidate of ['/usr/bin/pgbench', ...installed.map((version) => `/usr/lib/postgresql/${version}/bin/pgbench`)]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * The server runs as in production (NODE_ENV=production refuses to start without SMTP): mail goes
 * to this sink on loopback, which accepts and counts it. Plain SMTP: smtp-server's bundled
 * certificate has expired, and nothing leaves the machine.
 */
interface SmtpSink {
  url: string;
  received: () => number;
  /** The next IMS code mailed to this address (a bulk payment's approval, as a customer reads it). */
  nextCode: (to: string) => Promise<string>;
  close: () => Promise<void>;
}

async function startSmtpSink(): Promise<SmtpSink> {
  let received = 0;
  const codes = new Map<string, string[]>();
  const waiting = new Map<string, (code: string) => void>();
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received += 1;
        const to = session.envelope.rcptTo[0]?.address ?? '';
        const code = /IMS code is (\d{6})/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
        if (code) {
          const waiter = waiting.get(to);
          waiting.delete(to);
          if (waiter) waiter(code);
          else codes.set(to, [...(codes.get(to) ?? []), code]);
        }
        callback();
      });
    },
  });
  const nextCode = (to: string) =>
    new Promise<string>((resolve, reject) => {
      const queued = codes.get(to)?.shift();
      if (queued) return resolve(queued);
      const timer = setTimeout(() => {
        waiting.delete(to);
        reject(new Error(`no IMS code mailed to ${to} within 30 s`));
      }, 30_000);
      waiting.set(to, (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
  const { port } = sink.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, received: () => received, nextCode, close: () => new Promise<void>((resolve) => sink.close(() => resolve())) };
}

/**
 * What the declared schemas cost a transfer, measured in this process with the server's own
 * compilers: zod validating the request body and checking the answer before it is written, less
 * the JSON.stringify that an unchecked answer costs anyway. Microseconds per transfer.
 */
function schemaMicrosPerTransfer(iterations = 50_000): { checked: number; plain: number } {
  const validate = validatorCompiler({ schema: ZInternalTransferRequest, method: 'POST', url: '/api/transaction/internal-transfer', httpPart: 'body' });
  const serialize = serializerCompiler({ schema: ZTransactionAnswer, method: 'POST', url: '/api/transaction/internal-transfer', httpStatus: '201' });
  const body = { from: 'checking', to: 'savings', amount: '12.34' };
  const answer = {
    data: {
      _id: '01936f6e-6f5a-7c3e-8a8b-0f6f6a1b2c3d',
      entryId: '01936f6e-6f5a-7c3e-8a8b-0f6f6a1b2c3e',
      description: 'Transfer to savings',
      date: '2026-11-24',
      bookedAt: '2026-11-24T10:00:00.000Z',
      amount: 12.34,
      transactionType: 'debit',
      account: 'checking',
      kind: 'internal',
      status: 'completed',
      reversalOf: null,
      reversedBy: null,
      counterparty: null,
      balanceAfter: 4321.09,
    },
  };
  const time = (work: () => unknown) => {
    for (let index = 0; index < 2_000; index += 1) work();
    const started = process.hrtime.bigint();
    for (let index = 0; index < iterations; index += 1) work();
    return Number(process.hrtime.bigint() - started) / 1000 / iterations;
  };
  const checked = time(() => {
    const parsed = validate(structuredClone(body)) as { error?: unknown };
    if (parsed.error) throw new Error('the sample body is invalid');
    return serialize(answer);
  });
  const plain = time(() => {
    structuredClone(body);
    return JSON.stringify(answer);
  });
  return { checked, plain };
}

/** The ledger writer's counters from GET /metrics (the cluster's sum with several processes). */
async function writerCounters(baseUrl: string): Promise<{ batches: number; entries: number; fallbacks: number } | null> {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    return {
      batches: value('ledger_writer_batch_size_count'),
      entries: value('ledger_writer_batch_size_sum'),
      fallbacks: value('ledger_writer_fallbacks_total'),
    };
  } catch {
    return null;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** A process and every process it started (a cluster's workers), by pid. */
function processTree(root: number | undefined): Set<number> {
  const tree = new Set<number>(root === undefined ? [] : [root]);
  const parents = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return tree;
}

type Who = 'server' | 'client' | 'postgres' | 'other';

/** CPU seconds each process has used so far (user + system), with whose it is: the server (all its processes), this load generator, this bench's PostgreSQL (its postmaster and every backend), anything else on the machine. */
function cpuSnapshot(serverPid: number | undefined, postgresPid: number | undefined): Map<number, { who: Who; seconds: number }> {
  const server = processTree(serverPid);
  const postgres = processTree(postgresPid);
  const snapshot = new Map<number, { who: Who; seconds: number }>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
    const id = Number(pid);
    const who = server.has(id) ? 'server' : id === process.pid ? 'client' : postgres.has(id) ? 'postgres' : 'other';
    snapshot.set(id, { who, seconds });
  }
  return snapshot;
}

/**
 * CPU seconds used between two snapshots, by who. Counted per process, so a process that started
 * in between counts whole and one that exited counts nothing (other engineers' processes come and go;
 * PostgreSQL's of other runs on the machine are "other", not this bench's).
 */
function cpuUsed(before: ReturnType<typeof cpuSnapshot>, after: ReturnType<typeof cpuSnapshot>): Record<Who, number> {
  const totals = { server: 0, client: 0, postgres: 0, other: 0 };
  for (const [pid, { who, seconds }] of after) totals[who] += seconds - (before.get(pid)?.seconds ?? 0);
  return totals;
}

/** The postmaster's pid of the PostgreSQL whose data directory this is. */
function postmasterPid(dataDirectory: string): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
  } catch {
    return undefined;
  }
}

interface ApiResult {
  clients: number;
  ok: number;
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU milliseconds per completed transfer, by who. */
  cpuMs: Record<Who, number>;
}

/**
 * One kept-alive HTTP/1.1 connection a client, spoken over a plain socket: a request is one
 * string written at once, and an answer is read as far as its status line and Content-Length.
 * The load generator shares the two cores with the bank and PostgreSQL, as pgbench's client does
 * with PostgreSQL; Node's `http` client cost about 0.12 ms of CPU a transfer, a third of what the
 * bank itself spends, and every client's round trip waited for it. Fastify always answers with a
 * Content-Length; anything else fails the run.
 */
function poster(baseUrl: string) {
  const url = new URL(baseUrl);
  const HEADER_END = Buffer.from('\r\n\r\n');
  interface Waiting {
    resolve: (status: number) => void;
    reject: (error: Error) => void;
    answer?: (text: string) => void;
  }
  interface Connection {
    socket: net.Socket;
    waiting: Waiting | null;
    received: Buffer;
  }
  const idle: Connection[] = [];
  const connect = (): Connection => {
    const connection: Connection = { socket: net.connect({ host: url.hostname, port: Number(url.port) }), waiting: null, received: Buffer.alloc(0) };
    connection.socket.setNoDelay(true);
    const fail = (error: Error) => {
      const waiting = connection.waiting;
      connection.waiting = null;
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
      waiting?.reject(error);
    };
    connection.socket.on('error', fail);
    connection.socket.on('close', () => fail(new Error('the server closed the connection')));
    connection.socket.on('data', (chunk: Buffer) => {
      connection.received = connection.received.length === 0 ? chunk : Buffer.concat([connection.received, chunk]);
      const headerEnd = connection.received.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const head = connection.received.toString('latin1', 0, headerEnd);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      if (length === undefined) return fail(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
      const bodyEnd = headerEnd + HEADER_END.length + Number(length);
      if (connection.received.length < bodyEnd) return;
      const waiting = connection.waiting;
      if (!waiting) return fail(new Error('an answer nobody asked for'));
      waiting.answer?.(connection.received.toString('utf8', headerEnd + HEADER_END.length, bodyEnd));
      connection.received = connection.received.subarray(bodyEnd);
      connection.waiting = null;
      idle.push(connection);
      waiting.resolve(Number(head.slice(9, 12)));
    });
    return connection;
  };
  const host = `${url.hostname}:${url.port}`;
  return (path: string, headers: Record<string, string>, body: string, answer?: (text: string) => void) =>
    new Promise<number>((resolve, reject) => {
      const connection = idle.pop() ?? connect();
      connection.waiting = { resolve, reject, answer };
      let head = `POST ${path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
      for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
      connection.socket.write(`${head}\r\n${body}`);
    });
}

async function apiRun(baseUrl: string, tokens: string[], clients: number, pids: { server?: number; postgres?: number }): Promise<ApiResult> {
  const post = poster(baseUrl);
  const cpuBefore = cpuSnapshot(pids.server, pids.postgres);
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const token = tokens[client] ?? '';
      for (let index = 0; performance.now() < until; index += 1) {
        const body = index % 2 === 0 ? '{"from":"savings","to":"checking","amount":1}' : '{"from":"checking","to":"savings","amount":1}';
        const begin = performance.now();
        const status = await post(
          '/api/transaction/internal-transfer',
          { authorization: `Bearer ${token}`, 'idempotency-key': `bench-${clients}-${client}-${index}-${started}` },
          body,
        );
        latencies.push(performance.now() - begin);
        if (status === 201) ok += 1;
        else failed += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = cpuUsed(cpuBefore, cpuSnapshot(pids.server, pids.postgres));
  const perTransfer = (who: Who) => (used[who] * 1000) / Math.max(1, ok);
  latencies.sort((a, b) => a - b);
  return {
    clients,
    ok,
    failed,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMs: { server: perTransfer('server'), client: perTransfer('client'), postgres: perTransfer('postgres'), other: perTransfer('other') },
  };
}

interface BulkResultRow {
  clients: number;
  requests: number;
  payments: number;
  failed: number;
  seconds: number;
  /** Milliseconds of the posting call (the one with the code) and of a whole batch (code call, mail, posting). */
  p50: number;
  p99: number;
  p50Batch: number;
  /** CPU milliseconds per posted payment, by who. */
  cpuMs: Record<Who, number>;
}

interface BenchCustomer {
  token: string;
  email: string;
  accountNumber: string;
  /** The account holder's name, as a payroll file names its payees (confirmation of payee, ADR 029: every row matches). */
  name: string;
}

/**
 * Bulk payments: each client is one paying customer sending batches of BULK_ROWS payments of one
 * cent to the other customers, each batch approved as a customer does it: the first call, the IMS
 * code read from the mail the bank sent (the SMTP sink), the call with the code. Payments per
 * second counts the posted payments over the whole time, the code step and the mail included.
 */
async function bulkRun(
  baseUrl: string,
  customers: BenchCustomer[],
  clients: number,
  smtp: SmtpSink,
  seconds: number,
  pids: { server?: number; postgres?: number },
): Promise<BulkResultRow> {
  const post = poster(baseUrl);
  const cpuBefore = cpuSnapshot(pids.server, pids.postgres);
  const postings: number[] = [];
  const batches: number[] = [];
  let requests = 0;
  let payments = 0;
  let failed = 0;
  let reported = false;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const payer = customers[client % customers.length] as BenchCustomer;
      const payees = customers.filter((customer) => customer !== payer);
      const rows = Array.from({ length: BULK_ROWS }, (_, row) => ({
        accountNumber: (payees[row % payees.length] as BenchCustomer).accountNumber,
        amount: '0.01',
        name: (payees[row % payees.length] as BenchCustomer).name,
        description: `Bench bulk row ${row + 1}`,
      }));
      const body = JSON.stringify({ from: 'checking', payments: rows });
      const headers = (step: string, index: number) => ({
        authorization: `Bearer ${payer.token}`,
        'idempotency-key': `bulk-${step}-${clients}-${client}-${index}-${started}`,
      });
      const fail = (what: string, status: number, text: string) => {
        failed += 1;
        if (!reported) process.stderr.write(`bulk ${what} answered ${status}: ${text.slice(0, 300)}\n`);
        reported = true;
      };
      for (let index = 0; performance.now() < until; index += 1) {
        const begin = performance.now();
        let text = '';
        const asked = await post('/api/transaction/bulk', headers('code', index), body, (answer) => (text = answer));
        if (asked !== 200) {
          fail('code call', asked, text);
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        // A loaded machine may deliver a code late: that batch counts as an error, the run goes on.
        const code = await smtp.nextCode(payer.email).catch((error: unknown) => {
          fail('code mail', 0, error instanceof Error ? error.message : String(error));
          return null;
        });
        if (code === null) continue;
        const posting = performance.now();
        const paid = await post('/api/transaction/bulk', headers('pay', index), `${body.slice(0, -1)},"paymentPin":"${code}"}`, (answer) => (text = answer));
        const end = performance.now();
        requests += 1;
        if (paid !== 201) {
          fail('posting call', paid, text);
          continue;
        }
        payments += BULK_ROWS;
        postings.push(end - posting);
        batches.push(end - begin);
      }
    }),
  );
  const used = cpuUsed(cpuBefore, cpuSnapshot(pids.server, pids.postgres));
  const perPayment = (who: Who) => (used[who] * 1000) / Math.max(1, payments);
  postings.sort((a, b) => a - b);
  batches.sort((a, b) => a - b);
  return {
    cpuMs: { server: perPayment('server'), client: perPayment('client'), postgres: perPayment('postgres'), other: perPayment('other') },
    clients,
    requests,
    payments,
    failed,
    seconds: (performance.now() - started) / 1000,
    p50: percentile(postings, 50),
    p99: percentile(postings, 99),
    p50Batch: percentile(batches, 50),
  };
}

/** Where PostgreSQL spent its time since the last reset (pg_stat_statements, planning included), to stderr. */
async function printStatements(db: ReturnType<typeof createDatabase>['db'], what: string): Promise<void> {
  const top = await sql<{ calls: number; plan_ms: number; exec_ms: number; query: string }>`
    select calls, round(total_plan_time::numeric, 1)::float8 as plan_ms, round(total_exec_time::numeric, 1)::float8 as exec_ms, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) as query
    from pg_stat_statements where dbid = (select oid from pg_database where datname = 'bench_app')
    order by total_plan_time + total_exec_time desc limit 12`.execute(db);
  process.stderr.write(`PostgreSQL time by statement, ${what}:\n`);
  for (const row of top.rows)
    process.stderr.write(
      `${String(row.calls).padStart(7)} calls ${String(row.plan_ms).padStart(8)} ms plan ${String(row.exec_ms).padStart(8)} ms exec  ${row.query}\n`,
    );
}

async function pgbenchRun(binary: string, url: string, clients: number): Promise<number> {
  const { stdout } = await run(binary, ['-c', String(clients), '-j', '2', '-T', String(SECONDS), '-n', url], { maxBuffer: 10 * 1024 * 1024 });
  const match = /tps = ([0-9.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([0-9.]+)/.exec(stdout);
  if (!match) throw new Error(`could not read pgbench output:\n${stdout}`);
  return Number(match[1]);
}

async function main(): Promise<void> {
  const pgbench = pgbenchBinary();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-'));
  // Durable settings, as a bank runs: fsync and synchronous_commit stay on.
  // BENCH_STATEMENTS=1 also prints where PostgreSQL spent its time (pg_stat_statements, planning included).
  const statements = process.env.BENCH_STATEMENTS ? ['-c', 'pg_stat_statements.track=all', '-c', 'pg_stat_statements.track_planning=on'] : [];
  // BENCH_EXPLAIN=<ms> logs the plan of every statement slower than that (auto_explain, nested
  // statements and triggers included) to BENCH_EXPLAIN_LOG (default bench-explain.log in the temporary directory).
  const explainMs = process.env.BENCH_EXPLAIN;
  const explainLog = explainMs ? fs.createWriteStream(process.env.BENCH_EXPLAIN_LOG ?? path.join(os.tmpdir(), 'bench-explain.log')) : null;
  const preload = ['pg_stat_statements', ...(explainMs ? ['auto_explain'] : [])].filter((name) => name !== 'pg_stat_statements' || statements.length > 0);
  const explain = explainMs
    ? [
        '-c',
        `auto_explain.log_min_duration=${explainMs}`,
        '-c',
        'auto_explain.log_nested_statements=on',
        '-c',
        'auto_explain.log_analyze=on',
        '-c',
        'auto_explain.log_buffers=on',
      ]
    : [];
  const postgres = await startEmbeddedPostgres(path.join(directory, 'pg'), {
    flags: [
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=256MB',
      ...statements,
      ...(preload.length > 0 ? ['-c', `shared_preload_libraries=${preload.join(',')}`] : []),
      ...explain,
    ],
    ...(explainLog ? { log: (line: string) => explainLog.write(`${line}\n`) } : {}),
  });
  let server: ChildProcess | undefined;
  const smtp = await startSmtpSink();
  // Production settings; plain http on loopback (ALLOW_HTTP), mail to the sink; money limits as configured,
  // except the per-customer cap on money calls: a bench client posts thousands a minute, far past the
  // default 30, so MONEY_CALLS_PER_MINUTE is set high (and printed with the settings). RATE_LIMITS stays
  // on, so the cap's count (one upsert per money call) is still on the measured path.
  const signingKeyFile = path.join(directory, 'signing-key.pem');
  fs.writeFileSync(signingKeyFile, newSigningKeyPem(), { mode: 0o600 });
  // The bulk run asks for a transfer code per batch: the cap on codes an hour is at its highest (1,000).
  const productionLike = {
    NODE_ENV: 'production',
    DEMO_MODE: 'false',
    ALLOW_HTTP: 'true',
    SMTP_URL: smtp.url,
    BANK_SIGNING_KEY_FILE: signingKeyFile,
    MONEY_CALLS_PER_MINUTE: '1000000000',
    TRANSFER_CODES_PER_HOUR: '1000',
  };
  const serverSettings = `${Object.entries(productionLike)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')} (mail to an SMTP sink on loopback)`;
  try {
    await postgres.createDatabase('bench_app');
    await postgres.createDatabase('bench_pgbench');
    const appUrl = postgres.url('bench_app');
    const baseUrl = `http://127.0.0.1:${PORT}`;
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    const startServer = async (processes: number) => {
      server = startBank(
        {
          DATABASE_URL: appUrl,
          PORT: String(PORT),
          DATA_DIR: path.join(directory, 'data'),
          PUBLIC_URL: `http://127.0.0.1:${PORT}`,
          WEB_CONCURRENCY: String(processes),
          ...productionLike,
          ADMIN_PASSWORD: 'bench-admin-password-1',
        },
        profile,
      );
      await waitForHealth(baseUrl, server, 60_000);
      // A cluster's primary answers health at once; wait until its workers have started too.
      for (let waitedMs = 0; processTree(server.pid).size < processes && processes > 1 && waitedMs < 30_000; waitedMs += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, processes > 1 ? 1500 : 0));
      process.stderr.write(
        `server started production-like with ${processes} process${processes === 1 ? '' : 'es'} (node ${serveFlags.join(' ')}, as npm run serve): ${serverSettings}\n`,
      );
    };
    const stopServer = () => stopBank(server);
    await startServer(PROCESS_COUNTS[0] ?? 1);

    // Signed-in customers: real users, accounts, opening balances posted from cash, and sessions.
    const clientsMax = Math.max(...CLIENT_COUNTS);
    const database = createDatabase(appUrl, { max: 4 });
    const passwordHash = await hashPassword('Bench-Customer-2026');
    const tokens: string[] = [];
    const customers: BenchCustomer[] = [];
    for (let index = 0; index < Math.max(clientsMax, BULK_CLIENTS + 1); index += 1) {
      const user = await database.db
        .insertInto('users')
        .values({
          email: `bench.${index}@example.com`,
          password_hash: passwordHash,
          first_name: 'Bench',
          last_name: `Customer ${index}`,
          is_email_confirmed: true,
          verification_status: 'verified',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await openCustomerAccounts(database.db, user.id);
      const accounts = await database.db.selectFrom('ledger_accounts').select(['id', 'kind']).where('owner_id', '=', user.id).execute();
      const cash = await bankAccountId(database.db, 'bank_cash');
      await database.db.transaction().execute((trx) =>
        postEntries(
          trx,
          accounts.map((account) => ({
            kind: 'opening' as const,
            description: 'Opening balance',
            authorId: null,
            postings: [
              { accountId: cash, amountCents: -10_000_000 },
              { accountId: account.id, amountCents: 10_000_000 },
            ],
          })),
        ),
      );
      const token = await createSession({ db: database.db, clock: systemClock }, user.id, { ip: null, userAgent: 'bench' });
      tokens.push(token);
      const checking = await database.db
        .selectFrom('ledger_accounts')
        .select('number')
        .where('owner_id', '=', user.id)
        .where('kind', '=', 'checking')
        .executeTakeFirstOrThrow();
      customers.push({ token, email: `bench.${index}@example.com`, accountNumber: checking.number ?? '', name: `Bench Customer ${index}` });
    }

    if (pgbench) {
      process.stderr.write(`pgbench -i -s ${PGBENCH_SCALE}...\n`);
      await run(pgbench, ['-i', '-q', '-s', String(PGBENCH_SCALE), postgres.url('bench_pgbench')], { maxBuffer: 10 * 1024 * 1024 });
    }

    if (process.env.BENCH_DIAG) {
      for (const [label, url, init] of [
        ['health', `${baseUrl}/api/health`, {}],
        ['me', `${baseUrl}/api/user/me`, { headers: { authorization: `Bearer ${tokens[0]}` } }],
      ] as const) {
        const times: number[] = [];
        for (let index = 0; index < 200; index += 1) {
          const begin = performance.now();
          await (await fetch(url, init)).arrayBuffer();
          times.push(performance.now() - begin);
        }
        times.sort((a, b) => a - b);
        process.stderr.write(`diag ${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms\n`);
      }
    }

    if (statements.length > 0) await sql`create extension if not exists pg_stat_statements`.execute(database.db);
    const rows: Array<{ processes: number; clients: number; api: ApiResult }> = [];
    const bulkRows: Array<{ processes: number; bulk: BulkResultRow }> = [];
    const pgbenchTps = new Map<number, number | null>();
    for (const [index, processes] of PROCESS_COUNTS.entries()) {
      if (index > 0) {
        await stopServer();
        await startServer(processes);
      }
      for (const clients of CLIENT_COUNTS) {
        process.stderr.write(`API run, ${processes} process${processes === 1 ? '' : 'es'}, ${clients} clients, ${SECONDS} s...\n`);
        const pids = { server: server?.pid, postgres: postmasterPid(path.join(directory, 'pg')) };
        await apiRun(baseUrl, tokens, clients, pids).catch(() => undefined); // warm-up
        if (statements.length > 0) await sql`select pg_stat_statements_reset()`.execute(database.db);
        const countersBefore = await writerCounters(baseUrl);
        const api = await apiRun(baseUrl, tokens, clients, pids);
        const countersAfter = await writerCounters(baseUrl);
        if (countersBefore && countersAfter) {
          const batches = countersAfter.batches - countersBefore.batches;
          process.stderr.write(
            `ledger writer: ${batches} batches, ${((countersAfter.entries - countersBefore.entries) / Math.max(1, batches)).toFixed(1)} entries per batch, ` +
              `${countersAfter.fallbacks - countersBefore.fallbacks} fallbacks (ledger_writer_fallbacks_total)\n`,
          );
        }
        if (statements.length > 0) await printStatements(database.db, `${clients} clients (${api.ok} transfers)`);
        rows.push({ processes, clients, api });
        // pgbench between the first process count's runs, so its figure is of the same minute.
        if (index === 0) {
          let tps: number | null = null;
          if (pgbench) {
            process.stderr.write(`pgbench run, ${clients} clients, ${SECONDS} s...\n`);
            tps = await pgbenchRun(pgbench, postgres.url('bench_pgbench'), clients);
          }
          pgbenchTps.set(clients, tps);
        }
      }
      if (BULK_CLIENTS > 0 && BULK_ROWS > 0) {
        process.stderr.write(
          `bulk run, ${processes} process${processes === 1 ? '' : 'es'}, ${BULK_CLIENTS} clients, ${BULK_ROWS} payments a request, ${SECONDS} s...\n`,
        );
        const pids = { server: server?.pid, postgres: postmasterPid(path.join(directory, 'pg')) };
        await bulkRun(baseUrl, customers, BULK_CLIENTS, smtp, 2, pids); // warm-up
        if (statements.length > 0) await sql`select pg_stat_statements_reset()`.execute(database.db);
        const bulk = await bulkRun(baseUrl, customers, BULK_CLIENTS, smtp, SECONDS, pids);
        bulkRows.push({ processes, bulk });
        if (statements.length > 0) await printStatements(database.db, `bulk, ${processes} process${processes === 1 ? '' : 'es'} (${bulk.payments} payments)`);
      }
    }
    await stopServer(); // its shutdown seals what is left, so the verify below sees the whole chain

    const commits = await database.db
      .selectFrom('journal_entries')
      .select([sql<string>`count(*)`.as('entries'), sql<string>`count(distinct booked_at)`.as('commits')])
      .where('kind', '=', 'internal')
      .executeTakeFirstOrThrow()
      .catch(() => null);
    const verifyStarted = performance.now();
    const verified = await verifyLedger(database.db);
    const verifySeconds = (performance.now() - verifyStarted) / 1000;
    await database.close();

    const pad = (value: string, width: number) => value.padStart(width);
    const tpsOf = (row: (typeof rows)[number]) => row.api.ok / row.api.seconds;
    // Each row against one process at the same clients in the nearest round before it (the first
    // such round for the rows before it): with BENCH_PROCESSES=1,2,1,2,... each pair is measured
    // minutes apart, not a run apart.
    const singleFor = (index: number) => {
      const row = rows[index];
      const ones = rows.map((each, at) => ({ each, at })).filter(({ each }) => each.processes === 1 && each.clients === row?.clients);
      const before = ones.filter(({ at }) => at <= index).at(-1) ?? ones[0];
      return before ? tpsOf(before.each) : undefined;
    };
    console.log('');
    console.log(`Internal transfers through the HTTP API vs pgbench TPC-B-like (scale ${PGBENCH_SCALE}), ${SECONDS} s per run, same PostgreSQL, fsync on`);
    console.log(
      ['processes', 'clients', 'API transfers/s', 'p50 ms', 'p99 ms', 'errors', 'pgbench tps', 'ratio', 'vs 1 process']
        .map((title, index) => pad(title, [9, 7, 16, 8, 8, 7, 12, 7, 12][index] ?? 8))
        .join('  '),
    );
    for (const [index, row] of rows.entries()) {
      const tps = tpsOf(row);
      const base = pgbenchTps.get(row.clients) ?? null;
      const one = singleFor(index);
      console.log(
        [
          pad(String(row.processes), 9),
          pad(String(row.clients), 7),
          pad(tps.toFixed(0), 16),
          pad(row.api.p50.toFixed(1), 8),
          pad(row.api.p99.toFixed(1), 8),
          pad(String(row.api.failed), 7),
          pad(base === null ? 'n/a' : base.toFixed(0), 12),
          pad(base ? (tps / base).toFixed(2) : 'n/a', 7),
          pad(one ? (tps / one).toFixed(2) : 'n/a', 12),
        ].join('  '),
      );
    }
    // Alternated rounds: the median of each process count, so one slow or fast round does not decide.
    for (const processes of [...new Set(PROCESS_COUNTS)].filter((count) => count !== 1)) {
      const rounds = PROCESS_COUNTS.filter((count) => count === processes).length;
      if (rounds < 2 || !PROCESS_COUNTS.includes(1)) continue;
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
      const medianOf = (count: number, clients: number) => median(rows.filter((row) => row.processes === count && row.clients === clients).map(tpsOf));
      const figures = CLIENT_COUNTS.map((clients) => `${(medianOf(processes, clients) / medianOf(1, clients)).toFixed(2)}x at ${clients} clients`);
      console.log(`Medians over the alternated rounds: ${processes} processes vs 1: ${figures.join(', ')}`);
    }
    console.log('');
    console.log(
      `CPU per transfer (ms; ${os.cpus().length} cores shared by all of them; "server" is every app process, "postgres" this bench's PostgreSQL, "other" anything else on the machine)`,
    );
    console.log(['processes', 'clients', 'server', 'postgres', 'load gen', 'other'].map((title) => pad(title, 9)).join('  '));
    for (const row of rows) {
      const cpu = row.api.cpuMs;
      console.log(
        [String(row.processes), String(row.clients), cpu.server.toFixed(3), cpu.postgres.toFixed(3), cpu.client.toFixed(3), cpu.other.toFixed(3)]
          .map((value) => pad(value, 9))
          .join('  '),
      );
    }
    const schemaCost = schemaMicrosPerTransfer();
    const extraMs = Math.max(0, schemaCost.checked - schemaCost.plain) / 1000;
    const firstRow = rows.find((row) => row.processes === 1) ?? rows[0];
    if (firstRow) {
      const serverMs = firstRow.api.cpuMs.server;
      console.log(
        `Schemas on the hot path: ${(extraMs * 1000).toFixed(1)} µs per transfer (zod body validation + checked answer ${schemaCost.checked.toFixed(1)} µs, ` +
          `JSON.stringify alone ${schemaCost.plain.toFixed(1)} µs) = ${((extraMs / Math.max(serverMs, 1e-9)) * 100).toFixed(1)}% of the server's ` +
          `${serverMs.toFixed(3)} ms CPU per transfer (${firstRow.processes} process, ${firstRow.clients} clients)`,
      );
    }
    if (!pgbench) console.log('pgbench not found: apt-get install -y postgresql-client-15 (or postgresql-contrib)');
    if (commits)
      console.log(
        `Group commit: ${commits.entries} transfer entries in ${commits.commits} batches (${(Number(commits.entries) / Math.max(1, Number(commits.commits))).toFixed(1)} per commit)`,
      );
    if (bulkRows.length > 0) {
      const pgbenchBest = Math.max(0, ...[...pgbenchTps.values()].map((tps) => tps ?? 0));
      console.log('');
      console.log(
        `Bulk payments through the HTTP API: ${BULK_ROWS} payments a request, each batch approved with the IMS code mailed to the SMTP sink (code call, mail and posting all inside the time); ` +
          `vs pgbench's best and the best single transfers/s of the same process count`,
      );
      console.log(
        ['processes', 'clients', 'batches', 'payments/s', 'post p50 ms', 'post p99 ms', 'batch p50 ms', 'errors', 'pgbench tps', 'ratio', 'vs single']
          .map((title, index) => pad(title, [9, 7, 8, 11, 11, 11, 12, 7, 12, 7, 10][index] ?? 8))
          .join('  '),
      );
      for (const { processes, bulk } of bulkRows) {
        const perSecond = bulk.payments / bulk.seconds;
        const singleBest = Math.max(0, ...rows.filter((row) => row.processes === processes).map(tpsOf));
        console.log(
          [
            pad(String(processes), 9),
            pad(String(bulk.clients), 7),
            pad(String(bulk.requests), 8),
            pad(perSecond.toFixed(0), 11),
            pad(bulk.p50.toFixed(0), 11),
            pad(bulk.p99.toFixed(0), 11),
            pad(bulk.p50Batch.toFixed(0), 12),
            pad(String(bulk.failed), 7),
            pad(pgbenchBest ? pgbenchBest.toFixed(0) : 'n/a', 12),
            pad(pgbenchBest ? (perSecond / pgbenchBest).toFixed(2) : 'n/a', 7),
            pad(singleBest ? (perSecond / singleBest).toFixed(2) : 'n/a', 10),
          ].join('  '),
        );
      }
    }
    if (bulkRows.length > 0) {
      console.log('');
      console.log('CPU per bulk payment (ms; the same processes as CPU per transfer above)');
      console.log(['processes', 'clients', 'server', 'postgres', 'load gen', 'other'].map((title) => pad(title, 9)).join('  '));
      for (const { processes, bulk } of bulkRows) {
        const cpu = bulk.cpuMs;
        console.log(
          [String(processes), String(bulk.clients), cpu.server.toFixed(3), cpu.postgres.toFixed(3), cpu.client.toFixed(3), cpu.other.toFixed(3)]
            .map((value) => pad(value, 9))
            .join('  '),
        );
      }
    }
    console.log(
      `Machine load average at the end: ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')} (${os.cpus().length} cores)`,
    );
    console.log(`Ledger after the runs: ${describeVerifyResult(verified)} (verified in ${verifySeconds.toFixed(1)} s)`);
    console.log(`Server ran production-like: ${serverSettings}; ${smtp.received()} mails received by the sink`);
    if (!verified.ok) process.exitCode = 1;
  } finally {
    const running = server as ChildProcess | undefined;
    if (running && running.exitCode === null) running.kill('SIGKILL');
    await postgres.stop();
    await smtp.close();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
