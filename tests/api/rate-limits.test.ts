import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestContext } from '../support/app';

// The sign-in limit is 20 a minute per address. The address is the connection's unless
// TRUST_PROXY names the proxies in front; a client's own X-Forwarded-For must never reset it.
const SIGN_IN_PER_MINUTE = 20;
const randomAddress = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const signIn = (ctx: TestContext, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    headers,
    remoteAddress,
    payload: { email: `nobody.${randomBytes(3).toString('hex')}@example.com`, password: 'whatever-123' },
  });

async function statusesOf(count: number, call: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await call()).statusCode);
  return statuses;
}

const limitedAfter = (statuses: number[], allowed: number) => {
  expect(statuses.slice(0, allowed).every((status) => status === 401)).toBe(true);
  expect(statuses.slice(allowed).every((status) => status === 429)).toBe(true);
};

describe('a rotated X-Forwarded-For', () => {
  let direct: TestContext;
  let behindProxy: TestContext;
  beforeAll(async () => {
    [direct, behindProxy] = await Promise.all([
      createTestApp({ rateLimits: true, seedDemo: false }),
      createTestApp({ rateLimits: true, seedDemo: false, env: { TRUST_PROXY: '1' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([direct?.close(), behindProxy?.close()]);
  });

  it('does not escape the sign-in limit with TRUST_PROXY off (the header is not believed)', async () => {
    const statuses = await statusesOf(SIGN_IN_PER_MINUTE + 2, () => signIn(direct, { 'x-forwarded-for': randomAddress() }));
    limitedAfter(statuses, SIGN_IN_PER_MINUTE);
  });

  it('does not escape it with TRUST_PROXY=1 either: only the hop the proxy added counts', async () => {
    // The proxy appends the address it saw; whatever the client wrote before it is ignored.
    const statuses = await statusesOf(SIGN_IN_PER_MINUTE + 2, () =>
      signIn(behindProxy, { 'x-forwarded-for': `${randomAddress()}, ${randomAddress()}, 203.0.113.7` }, '10.0.0.2'),
    );
    limitedAfter(statuses, SIGN_IN_PER_MINUTE);
    // Another client behind the same proxy has its own count: the proxy's hop is what is read.
    const other = await signIn(behindProxy, { 'x-forwarded-for': `203.0.113.7, 203.0.113.8` }, '10.0.0.2');
    expect(other.statusCode).toBe(401);
  });
});

describe('rate limits shared through PostgreSQL', () => {
  let first: TestContext;
  let second: TestContext;
  beforeAll(async () => {
    first = await createTestApp({ rateLimits: true, seedDemo: false });
    // A second app on the same database: another process, or another instance.
    second = await createTestApp({ rateLimits: true, seedDemo: false, databaseUrl: first.databaseUrl });
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('counts one address across two apps on one database', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < SIGN_IN_PER_MINUTE + 2; index += 1) {
      statuses.push((await signIn(index % 2 === 0 ? first : second, {}, '192.0.2.50')).statusCode);
    }
    limitedAfter(statuses, SIGN_IN_PER_MINUTE);
    const limited = await signIn(second, {}, '192.0.2.50');
    expect(json(limited).message).toBe('Too many requests. Please wait a moment and try again.');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address, and another route for the same address, have their own counts.
    expect((await signIn(first, {}, '192.0.2.51')).statusCode).toBe(401);
    const signUp = await first.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: '192.0.2.50', payload: {} });
    expect(signUp.statusCode).toBe(400);
  });

  it('keeps one row per route and address, and starts a new window once the stored one ended', async () => {
    const rows = await first.database.db
      .selectFrom('rate_limits' as never)
      .selectAll()
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    await first.database.pool.query(`update rate_limits set window_ends_at = now() - interval '1 second'`);
    expect((await signIn(second, {}, '192.0.2.50')).statusCode).toBe(401);
    const { rows: after } = await first.database.pool.query<{ hits: number }>(
      `select hits from rate_limits where key like '%192.0.2.50' and key like 'POST /api/auth/signin%'`,
    );
    expect(after).toEqual([{ hits: 1 }]);
  });

  it('counts nothing with RATE_LIMITS=false (test runs)', async () => {
    const unlimited = await createTestApp({ seedDemo: false, databaseUrl: first.databaseUrl });
    try {
      const statuses = await statusesOf(SIGN_IN_PER_MINUTE + 2, () => signIn(unlimited, {}, '192.0.2.60'));
      expect(statuses.every((status) => status === 401)).toBe(true);
      const { rows } = await first.database.pool.query(`select 1 from rate_limits where key like '%192.0.2.60'`);
      expect(rows).toEqual([]);
    } finally {
      await unlimited.close();
    }
  });
});
