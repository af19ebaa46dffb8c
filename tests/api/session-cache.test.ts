import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CHANGES_CHANNEL } from '../../src/server/auth/session-cache';
import { type DB, NOTICES_APPLICATION_NAME } from '../../src/server/db/database';
import { sessionCacheLookups } from '../../src/server/lib/metrics';
import { bearer, createCustomer, createTestApp, signIn, type TestContext, waitFor } from '../support/app';

// The per-process session cache (ADR 008, "The session cache"): what a signed-in customer would
// notice (signing out, being disabled elsewhere) and what an operator relies on (a lost listener
// turns it off, and it comes back by itself).

const hits = async () => (await sessionCacheLookups.get()).values.find((value) => value.labels.result === 'hit')?.value ?? 0;
const me = (ctx: TestContext, token: string) => ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(token) });

describe('the session cache', () => {
  let one: TestContext;
  let two: TestContext;
  let admin: pg.Client;
  beforeAll(async () => {
    one = await createTestApp({ seedDemo: false });
    // Another process on the same database, with its own cache.
    two = await createTestApp({ seedDemo: false, databaseUrl: one.databaseUrl });
    admin = new pg.Client({ connectionString: one.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await Promise.all([two?.close(), one?.close()]);
  });

  it('answers a session from the cache once looked up, and refuses it at once after a sign-out, every time', async () => {
    const customer = await createCustomer(one);
    for (let round = 1; round <= 25; round += 1) {
      const token = await signIn(one, customer.email, customer.password);
      expect((await me(one, token)).statusCode).toBe(200);
      const before = await hits();
      expect((await me(one, token)).statusCode).toBe(200);
      expect(await hits(), `round ${round}: the second call is answered from the cache`).toBe(before + 1);
      expect((await one.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(token) })).statusCode).toBeLessThan(300);
      expect((await me(one, token)).statusCode, `round ${round}: signed out`).toBe(401);
    }
  });

  it('hears a sign-out, a disabled customer and an ended session of another process within a moment', async () => {
    const customer = await createCustomer(one);
    const refusedWithin = async (token: string, change: () => Promise<unknown>) => {
      expect((await me(two, token)).statusCode).toBe(200);
      const before = await hits();
      expect((await me(two, token)).statusCode).toBe(200);
      expect(await hits()).toBe(before + 1);
      await change();
      const started = Date.now();
      for (;;) {
        if ((await me(two, token)).statusCode === 401) return Date.now() - started;
        if (Date.now() - started > 2_000) throw new Error('still served 2 s after the change');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    // Signed out through the other process.
    const signedOut = await signIn(one, customer.email, customer.password);
    expect(await refusedWithin(signedOut, () => one.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(signedOut) }))).toBeLessThan(500);
    // Ended by hand (an operator with psql).
    const ended = await signIn(one, customer.email, customer.password);
    expect(
      await refusedWithin(ended, () => admin.query(`update sessions set ended_at = now() where user_id = $1 and ended_at is null`, [customer.userId])),
    ).toBeLessThan(500);
    // The customer disabled: every session of theirs goes.
    const disabled = await signIn(one, customer.email, customer.password);
    expect(await refusedWithin(disabled, () => admin.query(`update users set is_account_disabled = true where id = $1`, [customer.userId]))).toBeLessThan(500);
  });

  it('hears its own change before the change answers: a connection that commits hears its notification first', async () => {
    const client = await one.database.pool.connect();
    try {
      let heard = false;
      client.on('notification', (message) => {
        if (message.channel === SESSION_CHANGES_CHANNEL && message.payload === 'own-change') heard = true;
      });
      for (let round = 0; round < 20; round += 1) {
        heard = false;
        await client.query(`select pg_notify($1, 'own-change')`, [SESSION_CHANGES_CHANNEL]);
        expect(heard, `round ${round}`).toBe(true);
      }
    } finally {
      client.release();
    }
  });

  it('passes each change on once, whether this process, another one or an operator made it', async () => {
    // Several pool connections open, each listening: PostgreSQL sends every one of them a copy.
    await Promise.all(Array.from({ length: 6 }, () => sql`select pg_sleep(0.05)`.execute(one.database.db)));
    const heard = new Map<string, number>();
    one.database.notices.onNotice((channel, payload) => {
      if (channel === SESSION_CHANGES_CHANNEL) heard.set(payload, (heard.get(payload) ?? 0) + 1);
    });
    const announce = (db: DB, payload: string) => sql`select pg_notify(${SESSION_CHANGES_CHANNEL}, ${payload})`.execute(db);
    for (let round = 0; round < 5; round += 1) {
      await announce(one.database.db, `by-this-process-${round}`);
      // Heard before the change answered: the process acts on its own change first.
      expect(heard.get(`by-this-process-${round}`), `round ${round}: heard before it answered`).toBe(1);
      await announce(two.database.db, `by-another-process-${round}`);
      await admin.query(`select pg_notify($1, $2)`, [SESSION_CHANGES_CHANNEL, `by-an-operator-${round}`]);
    }
    // Every copy has arrived by now (they come a round trip after the commit).
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let round = 0; round < 5; round += 1) {
      for (const source of ['by-this-process', 'by-another-process', 'by-an-operator']) {
        expect(heard.get(`${source}-${round}`), `${source}, round ${round}`).toBe(1);
      }
    }
  });

  it('serves nothing while its listener is down, and serves again once it listens again', async () => {
    const customer = await createCustomer(one);
    expect((await me(one, customer.token)).statusCode).toBe(200);
    const { rows } = await admin.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1 and datname = current_database()`, [
      NOTICES_APPLICATION_NAME,
    ]);
    expect(rows).toHaveLength(2);
    // Both processes' listeners cut.
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()`, [
      NOTICES_APPLICATION_NAME,
    ]);
    await waitFor(() => !one.database.notices.listening, 'the listener noticed its loss', 5_000);
    expect(one.context.sessions.serving).toBe(false);
    const before = await hits();
    // Still signed in (looked up every time), and a change made meanwhile is seen at once.
    expect((await me(one, customer.token)).statusCode).toBe(200);
    expect((await me(one, customer.token)).statusCode).toBe(200);
    expect(await hits()).toBe(before);
    await admin.query(`update sessions set ended_at = now() where user_id = $1`, [customer.userId]);
    expect((await me(one, customer.token)).statusCode).toBe(401);
    // Back by itself, with nothing of before cached.
    await waitFor(() => one.database.notices.listening && two.database.notices.listening, 'the listeners are back', 10_000);
    expect(one.context.sessions.serving).toBe(true);
    const again = await signIn(one, customer.email, customer.password);
    expect((await me(one, again)).statusCode).toBe(200);
    expect((await me(one, again)).statusCode).toBe(200);
    expect(await hits()).toBe(before + 1);
  });
});

describe('with SESSION_CACHE=false', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ seedDemo: false, env: { SESSION_CACHE: 'false' } });
  });
  afterAll(async () => ctx?.close());

  it('looks every session up and listens to nothing (behind a pooler in transaction mode)', async () => {
    const customer = await createCustomer(ctx);
    const before = await hits();
    for (let call = 0; call < 3; call += 1) expect((await me(ctx, customer.token)).statusCode).toBe(200);
    expect(await hits()).toBe(before);
    expect(ctx.context.sessions.serving).toBe(false);
    expect(ctx.database.notices.listening).toBe(false);
  });
});
