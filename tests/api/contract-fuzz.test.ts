import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../src/server/ledger/verify';
import { createTestApp, json, type TestContext } from '../support/app';
import { type OpenApiDocument, operationsOf } from '../support/fuzz/document';
import { type FuzzReport, Fuzzer, type OperationStats, type Violation } from '../support/fuzz/fuzzer';
import { type RouteProbe, watchRoutes } from '../support/fuzz/routes';

/**
 * Contract fuzzing: every operation the OpenAPI document lists gets at least 20 requests generated
 * from its own schemas (fast-check, fixed seed), signed out, as a customer and as staff. Most are
 * valid and use real ids of data made for the run; the others each break one thing (a NUL or
 * another control character, a lone surrogate, text far too long, year 0000 or 9999, huge
 * numbers, the wrong JSON type, a missing field, JSON nested thousands deep, someone else's id,
 * a bad Idempotency-Key or Authorization header, a disguised or oversized upload). No answer may
 * be a 5xx, and every answer must match what the document says of its status.
 *
 * Reproduce a failure with the same seed: FUZZ_SEED=<seed> npx vitest run tests/api/contract-fuzz.test.ts
 * and see every request and answer of some operations with FUZZ_TRACE=<regex of 'METHOD /path'>.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const REQUESTS_PER_OPERATION = 24;
/** At least this share of all requests must get through to the service (past auth and validation). */
const REACHED_SHARE_MIN = 0.3;

let ctx: TestContext;
let probe: RouteProbe;
let report: FuzzReport;

beforeAll(async () => {
  probe = watchRoutes();
  try {
    ctx = await createTestApp();
  } finally {
    probe.stop();
  }
});
afterAll(async () => ctx?.close());

function table(stats: OperationStats[]): string {
  const width = Math.max(...stats.map((row) => row.operation.length), 'operation'.length);
  const lines = [`${'operation'.padEnd(width)}  req  reached  statuses`];
  for (const row of stats) {
    const statuses = Object.entries(row.statuses)
      .map(([status, count]) => `${status}x${count}`)
      .join(' ');
    lines.push(`${row.operation.padEnd(width)}  ${String(row.requests).padStart(3)}  ${String(row.reached).padStart(7)}  ${statuses}`);
  }
  const requests = stats.reduce((sum, row) => sum + row.requests, 0);
  const reached = stats.reduce((sum, row) => sum + row.reached, 0);
  lines.push(
    `${'total'.padEnd(width)}  ${String(requests).padStart(3)}  ${String(reached).padStart(7)}  (${((100 * reached) / Math.max(requests, 1)).toFixed(1)}% reached the service)`,
  );
  return lines.join('\n');
}

describe('contract fuzzing of every documented operation', () => {
  it(`answers every generated request (seed ${SEED}) without a 5xx and as documented`, async () => {
    const document = json<OpenApiDocument>(await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' }));
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(0);
    const trace = process.env.FUZZ_TRACE ? new RegExp(process.env.FUZZ_TRACE) : undefined;
    report = await new Fuzzer(ctx, document, probe, { seed: SEED, requestsPerOperation: REQUESTS_PER_OPERATION, trace }).run(operations);
    console.log(`contract fuzz, seed ${SEED}\n${table(report.stats)}`);
    if (report.undocumentedMultipart.length > 0)
      console.log(`sent as multipart although the document describes no form: ${report.undocumentedMultipart.join(', ')}`);

    // Every operation was fuzzed, enough times.
    expect(report.stats.map((row) => row.operation)).toEqual(operations.map((operation) => operation.key));
    const tooFew = report.stats.filter((row) => row.requests < 20).map((row) => row.operation);
    expect(tooFew, 'operations with fewer than 20 requests').toEqual([]);

    const byOperation = new Map<string, Violation[]>();
    for (const violation of report.violations) byOperation.set(violation.operation, [...(byOperation.get(violation.operation) ?? []), violation]);
    const summary = [...byOperation.entries()].map(([operation, violations]) => {
      const counts = new Map<string, number>();
      for (const violation of violations) counts.set(violation.kind, (counts.get(violation.kind) ?? 0) + 1);
      // Server errors first: they are the bugs; the rest are mostly answers the document does not describe yet.
      const firstOfEachKind = [...counts.keys()].map((kind) => violations.find((violation) => violation.kind === kind)!);
      const examples = firstOfEachKind.sort((a, b) => Number(b.kind.startsWith('server')) - Number(a.kind.startsWith('server'))).slice(0, 3);
      return [
        `  ${operation}: ${[...counts.entries()].map(([kind, count]) => `${kind} x${count}`).join(', ')}`,
        ...examples.map((example) => `      e.g. ${example.problem.slice(0, 240)}\n        <- ${example.request}`),
      ].join('\n');
    });
    expect(byOperation.size, `operations with answers that are 5xx or do not match the document (seed ${SEED}):\n${summary.join('\n')}`).toBe(0);

    const requests = report.stats.reduce((sum, row) => sum + row.requests, 0);
    const reached = report.stats.reduce((sum, row) => sum + row.reached, 0);
    expect(reached / requests, 'share of requests valid enough to reach the service').toBeGreaterThanOrEqual(REACHED_SHARE_MIN);
  }, 420_000);

  it('left the ledger consistent', async () => {
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });
});
