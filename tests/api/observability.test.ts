import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { createAppContext } from '../../src/server/context';
import { createDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { freePort } from '../../src/server/db/embedded';
import { PURGE_TASK } from '../../src/server/jobs/purge';
import { countQueues } from '../../src/server/jobs/runner';
import { createLogger } from '../../src/server/lib/logger';
import { jobsFailed, trackPool } from '../../src/server/lib/metrics';
import { createMailer } from '../../src/server/mail/mailer';
import { bearer, createTestApp, json, signIn, type TestContext } from '../support/app';

const METRICS_TOKEN = 'scrape-token-0123456789';

/** The value of one series on a Prometheus page (the first line that matches name and labels). */
function sample(page: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

describe('GET /metrics', () => {
  let ctx: TestContext;
  let open: TestContext;
  let untrack: () => void;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { METRICS_TOKEN } });
    open = await createTestApp({ seedDemo: false });
    untrack = trackPool(ctx.database.poolStats);
  });
  afterAll(async () => {
    untrack?.();
    await Promise.all([ctx?.close(), open?.close()]);
  });
  const scrape = async (target = ctx) => {
    const response = await target.app.inject({ method: 'GET', url: '/metrics', headers: bearer(METRICS_TOKEN) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789'), { authorization: METRICS_TOKEN }]) {
      const refused = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(refused.statusCode).toBe(401);
      expect(json(refused)).toEqual({ message: 'A valid metrics token is required.', code: 'unauthorized' });
      expect(refused.body).not.toContain('http_request_duration_seconds');
    }
    await scrape();
    // Without METRICS_TOKEN it is open (the operator keeps it off the public proxy).
    expect((await open.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('times requests by route pattern, method and status, never by raw URL', async () => {
    const id = randomUUID();
    for (let index = 0; index < 3; index += 1) {
      expect((await ctx.app.inject({ method: 'DELETE', url: `/api/contacts/${id}` })).statusCode).toBe(401);
    }
    await ctx.app.inject({ method: 'GET', url: '/no/such/page' });
    const page = await scrape();
    expect(sample(page, 'http_request_duration_seconds_count', { method: 'DELETE', route: '/api/contacts/:id', status: '401' })).toBe(3);
    expect(sample(page, 'http_request_duration_seconds_bucket', { route: '/api/contacts/:id', le: '+Inf' })).toBe(3);
    expect(sample(page, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(page).not.toContain(id);
    expect(page).not.toContain('/no/such/page');
  });

  it('shows the ledger writer, the pool, jobs and the event loop', async () => {
    const before = await scrape();
    const token = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
    const transfer = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(token), 'idempotency-key': randomUUID() },
      payload: { from: 'checking', to: 'savings', amount: 1 },
    });
    expect(transfer.statusCode).toBe(201);
    jobsFailed.inc({ queue: 'test-queue' });
    await countQueues(ctx.context);
    const page = await scrape();
    expect(sample(page, 'ledger_writer_batch_size_count')).toBeGreaterThan(sample(before, 'ledger_writer_batch_size_count') ?? 0);
    expect(sample(page, 'ledger_writer_queue_depth')).toBe(0);
    expect(sample(page, 'ledger_writer_fallbacks_total')).not.toBeNull();
    expect(sample(page, 'jobs_failed_total', { queue: 'test-queue' })).toBe(1);
    // A queue with nothing in it is a 0, not a missing series.
    expect(sample(page, 'jobs_queue_depth', { queue: PURGE_TASK, state: 'failed' })).toBe(0);
    expect(sample(page, 'db_pool_waiting')).toBe(0);
    expect(sample(page, 'db_pool_total')).toBeGreaterThanOrEqual(1);
    expect(sample(page, 'db_pool_idle')).not.toBeNull();
    expect(sample(page, 'nodejs_eventloop_lag_seconds')).not.toBeNull();
  });
});

describe('request ids in the log', () => {
  let ctx: TestContext;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    ctx = await createTestApp({ seedDemo: false, logStream: stream });
  });
  afterAll(async () => ctx?.close());

  it('carries the request id on every line of a request, services included, and answers it as X-Request-Id', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'A Bot', email: 'bot@example.com', subject: 'Hello', message: 'Buy now', website: 'http://spam.example' },
    });
    expect(response.statusCode).toBe(201);
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const ofRequest = lines.filter((line) => line.reqId === id).map((line) => line.msg);
    expect(ofRequest).toEqual(['incoming request', 'contact message dropped: honeypot filled', 'request completed']);
    // Ids are unique across processes (not a per-process counter).
    const next = await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(next.headers['x-request-id']).not.toBe(id);
  });
});

describe('probes and documents while the database is away', () => {
  let database: DatabaseHandle;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    // Nothing listens on this port: every query fails to connect, as while PostgreSQL is down.
    database = createDatabase(`postgres://nobody:nothing@127.0.0.1:${await freePort()}/gone`, { max: 2 });
    const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), rateLimits: false };
    const context = createAppContext({
      config,
      db: database.db,
      mailer: createMailer({ from: config.mailFrom }),
      log: createLogger(config, { level: 'silent' }),
    });
    app = await buildApp(context);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers live, the OpenAPI document, the docs and /metrics; ready and /api/health say unavailable', async () => {
    const live = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(json(live)).toEqual({ data: { status: 'ok' } });
    for (const url of ['/api/health/ready', '/api/health']) {
      const ready = await app.inject({ method: 'GET', url });
      expect(ready.statusCode, url).toBe(503);
      expect(json(ready), url).toEqual({ data: { status: 'unavailable' } });
    }
    // The same with a session the database cannot look up (the web app's recheck sends its cookie).
    const signedIn = { cookie: `ll_session=${'a'.repeat(43)}`, authorization: `Bearer ${'b'.repeat(43)}` };
    for (const headers of [{ cookie: signedIn.cookie }, { authorization: signedIn.authorization }]) {
      const liveSignedIn = await app.inject({ method: 'GET', url: '/api/health/live', headers });
      expect(liveSignedIn.statusCode).toBe(200);
      for (const url of ['/api/health/ready', '/api/health']) {
        const ready = await app.inject({ method: 'GET', url, headers });
        expect(ready.statusCode, url).toBe(503);
        expect(json(ready), url).toEqual({ data: { status: 'unavailable' } });
      }
      expect((await app.inject({ method: 'GET', url: '/api/openapi.json', headers })).statusCode).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
    const docs = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('says unavailable on a reachable database that is not migrated', async () => {
    const { createTestDatabase } = await import('../support/app');
    const empty = createDatabase((await createTestDatabase()).url, { max: 1 });
    const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), rateLimits: false };
    const context = createAppContext({ config, db: empty.db, mailer: createMailer({ from: config.mailFrom }), log: createLogger(config, { level: 'silent' }) });
    const fresh = await buildApp(context);
    try {
      const ready = await fresh.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(json(ready)).toEqual({ data: { status: 'unavailable' } });
    } finally {
      await fresh.close();
      await empty.close();
    }
  });
});
