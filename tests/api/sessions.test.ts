import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/crypto';
import { resolveSession } from '../../src/server/auth/sessions';
import { adminToken, bearer, createCustomer, createTestApp, json, mailbox, type TestContext } from '../support/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The cookies a browser would keep from an answer (name=value pairs). */
function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const cookie of response.cookies) jar[cookie.name] = cookie.value;
  return jar;
}
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

/** Signs in as a browser would: with its user agent and the cookies it kept; answers the token and the cookies it keeps now. */
async function browserSignIn(email: string, password: string, userAgent: string, jar: Record<string, string> = {}, remoteAddress = '203.0.113.7') {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    remoteAddress,
    headers: { 'user-agent': userAgent, origin: 'http://localhost', ...(Object.keys(jar).length ? { cookie: cookieHeader(jar) } : {}) },
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { token: json(response).data.token as string, jar: { ...jar, ...cookiesOf(response) } };
}

const listSessions = async (token: string) => {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return json(response).data as Array<{ id: string; current: boolean; device: string; ipAddress: string | null; createdAt: string; lastSeenAt: string }>;
};
const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(token) });
const newDeviceMails = async (email: string) => (await mailbox(ctx)).filter((mail) => mail.to === email && /new sign-in/i.test(mail.subject));

describe('GET /api/auth/sessions', () => {
  it('lists every live session with this one marked, its device, address and times, and none of another user', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const phone = await browserSignIn(customer.email, customer.password, SAFARI_IPHONE, {}, '198.51.100.20');
    const laptop = await browserSignIn(customer.email, customer.password, CHROME_WINDOWS, {}, '198.51.100.21');

    const sessions = await listSessions(laptop.token);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.current)).toEqual([expect.objectContaining({ device: 'Chrome on Windows', ipAddress: '198.51.100.21' })]);
    expect(sessions).toContainEqual(expect.objectContaining({ current: false, device: 'Safari on iPhone', ipAddress: '198.51.100.20' }));
    for (const session of sessions) {
      expect(Date.parse(session.createdAt)).not.toBeNaN();
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt) - 1000);
    }
    const otherIds = (await listSessions(other.token)).map((session) => session.id);
    expect(otherIds.some((id) => sessions.some((session) => session.id === id))).toBe(false);
    expect((await listSessions(phone.token)).find((session) => session.current)?.device).toBe('Safari on iPhone');
    // Never a token or its hash.
    const raw = (await ctx.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(laptop.token) })).body;
    expect(raw).not.toContain(laptop.token);
    expect(raw).not.toMatch(/token|hash/i);
  });

  it('leaves out ended, idle and expired sessions', async () => {
    const customer = await createCustomer(ctx);
    const idle = await browserSignIn(customer.email, customer.password, FIREFOX_LINUX);
    const expired = await browserSignIn(customer.email, customer.password, FIREFOX_LINUX);
    const ended = await browserSignIn(customer.email, customer.password, FIREFOX_LINUX);
    const before = await listSessions(customer.token);
    expect(before).toHaveLength(4);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/signout', headers: bearer(ended.token) })).statusCode).toBe(200);
    const ids = before.map((session) => session.id);
    await ctx.database.db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '16 minutes'` })
      .where('id', 'in', ids)
      .where('token_hash', '=', sql<string>`encode(sha256(${idle.token}::bytea), 'hex')`)
      .execute();
    await ctx.database.db
      .updateTable('sessions')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('token_hash', '=', sql<string>`encode(sha256(${expired.token}::bytea), 'hex')`)
      .execute();
    const after = await listSessions(customer.token);
    expect(after).toHaveLength(1);
    expect(after[0]?.current).toBe(true);
  });

  it('needs a session', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401);
  });
});

describe('ending sessions', () => {
  it("DELETE /api/auth/sessions/{id} ends one of the customer's sessions: its next call answers 401", async () => {
    const customer = await createCustomer(ctx);
    const phone = await browserSignIn(customer.email, customer.password, SAFARI_IPHONE);
    const phoneSession = (await listSessions(phone.token)).find((session) => session.current)!;
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${phoneSession.id}`, headers: bearer(customer.token) });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ data: { ended: 1 }, message: 'Session ended' });
    expect((await me(phone.token)).statusCode).toBe(401);
    expect((await me(customer.token)).statusCode).toBe(200);
    // Ended is ended: a second try finds nothing to end.
    const again = await ctx.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${phoneSession.id}`, headers: bearer(customer.token) });
    expect(again.statusCode).toBe(404);
  });

  it("answers 404 for another customer's session, an unknown id and a malformed one, and ends nothing", async () => {
    const customer = await createCustomer(ctx);
    const stranger = await createCustomer(ctx);
    const theirs = (await listSessions(stranger.token))[0]!;
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id', '1%27%20or%201%3D1']) {
      const response = await ctx.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${id}`, headers: bearer(customer.token) });
      expect(response.statusCode, id).toBe(404);
    }
    expect(json(await ctx.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${theirs.id}`, headers: bearer(customer.token) })).message).toBe(
      'Session not found',
    );
    expect((await me(stranger.token)).statusCode).toBe(200);
  });

  it('POST /api/auth/sessions/revoke-others ends every other session and keeps this one', async () => {
    const customer = await createCustomer(ctx);
    const others = [
      await browserSignIn(customer.email, customer.password, SAFARI_IPHONE),
      await browserSignIn(customer.email, customer.password, FIREFOX_LINUX),
    ];
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sessions/revoke-others', headers: bearer(customer.token) });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ data: { ended: 2 }, message: 'Signed out everywhere else' });
    for (const other of others) expect((await me(other.token)).statusCode).toBe(401);
    expect((await me(customer.token)).statusCode).toBe(200);
    expect((await listSessions(customer.token)).map((session) => session.current)).toEqual([true]);
  });

  it('refuses both calls without a session', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/sessions/revoke-others' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/auth/sessions/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(401);
  });
});

describe('last seen', () => {
  const lastSeen = async (userId: string) =>
    (await ctx.database.db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', userId).where('ended_at', 'is', null).executeTakeFirstOrThrow())
      .last_seen_at;

  it('is written at most once a minute per session, not on every request', async () => {
    const customer = await createCustomer(ctx);
    await ctx.database.db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '30 seconds'` })
      .where('user_id', '=', customer.userId)
      .execute();
    // A touch is not announced (the session cache serves only while no touch is due, ADR 008): a
    // last-seen time moved back by hand is read by a process that looks the session up again.
    ctx.context.sessions.dropUser(customer.userId);
    const stale = await lastSeen(customer.userId);
    for (let call = 0; call < 3; call += 1) expect((await me(customer.token)).statusCode).toBe(200);
    expect(await lastSeen(customer.userId)).toEqual(stale);

    await ctx.database.db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '61 seconds'` })
      .where('user_id', '=', customer.userId)
      .execute();
    ctx.context.sessions.dropUser(customer.userId);
    const old = await lastSeen(customer.userId);
    expect((await me(customer.token)).statusCode).toBe(200);
    expect((await lastSeen(customer.userId)).getTime()).toBeGreaterThan(old.getTime() + 50_000);
  });

  it('every signed-in answer says how long the session has before it idles out', async () => {
    const customer = await createCustomer(ctx);
    const fresh = await me(customer.token);
    expect(Number(fresh.headers['x-session-idle-seconds'])).toBeGreaterThan(14 * 60);
    expect(Number(fresh.headers['x-session-idle-seconds'])).toBeLessThanOrEqual(15 * 60);
    await ctx.database.db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '50 seconds'` })
      .where('user_id', '=', customer.userId)
      .execute();
    ctx.context.sessions.dropUser(customer.userId);
    // Not touched (less than a minute), so the time left counts from the stored last-seen time.
    const left = Number((await me(customer.token)).headers['x-session-idle-seconds']);
    expect(left).toBeGreaterThan(15 * 60 - 60);
    expect(left).toBeLessThanOrEqual(15 * 60 - 50);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).headers['x-session-idle-seconds']).toBeUndefined();
  });
});

describe('a sign-in from a new device', () => {
  it('emails the customer once per device, never for the sign-in right after sign-up, and sets a long-lived device cookie', async () => {
    const customer = await createCustomer(ctx);
    expect(await newDeviceMails(customer.email)).toEqual([]);

    const laptop = await browserSignIn(customer.email, customer.password, CHROME_WINDOWS, {}, '198.51.100.30');
    const mails = await newDeviceMails(customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Ledgerline Bank: new sign-in from Chrome on Windows');
    expect(mails[0]?.text).toContain('Address: 198.51.100.30');
    // When, on the bank's clock (BANK_TIMEZONE, UTC here) with the zone named, as statements say it.
    expect(mails[0]?.text).toMatch(/Time: \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} \(UTC\)\n/);
    expect(mails[0]?.text).toContain('/account/security');

    // The same browser again, with the cookie it kept: no mail.
    expect(laptop.jar.ll_device).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const again = await browserSignIn(customer.email, customer.password, CHROME_WINDOWS, { ll_device: laptop.jar.ll_device! });
    expect(await newDeviceMails(customer.email)).toHaveLength(1);
    expect(again.jar.ll_device).toBe(laptop.jar.ll_device);

    // Another browser (its own cookie): one more mail, and again none for its second sign-in.
    const phone = await browserSignIn(customer.email, customer.password, SAFARI_IPHONE);
    expect(await newDeviceMails(customer.email)).toHaveLength(2);
    await browserSignIn(customer.email, customer.password, SAFARI_IPHONE, { ll_device: phone.jar.ll_device! });
    expect(await newDeviceMails(customer.email)).toHaveLength(2);

    // Claiming to be the laptop's browser without its cookie is a new device.
    await browserSignIn(customer.email, customer.password, CHROME_WINDOWS);
    expect(await newDeviceMails(customer.email)).toHaveLength(3);
  });

  it('a device known to one customer is new to another, and a malformed cookie counts as none', async () => {
    const first = await createCustomer(ctx);
    const second = await createCustomer(ctx);
    const shared = await browserSignIn(first.email, first.password, FIREFOX_LINUX);
    await browserSignIn(second.email, second.password, FIREFOX_LINUX, { ll_device: shared.jar.ll_device! });
    expect(await newDeviceMails(second.email)).toHaveLength(1);
    await browserSignIn(second.email, second.password, FIREFOX_LINUX, { ll_device: 'short' });
    expect(await newDeviceMails(second.email)).toHaveLength(2);
    const stored = await ctx.database.db.selectFrom('known_devices').select('token_hash').execute();
    expect(stored.some((row) => row.token_hash === shared.jar.ll_device)).toBe(false);
  });

  it('the device cookie is HttpOnly, SameSite=Strict, sent only to the sign-in calls, and outlives the session', async () => {
    const customer = await createCustomer(ctx);
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: customer.email, password: customer.password } });
    const device = response.cookies.find((cookie) => cookie.name === 'll_device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(device!.maxAge).toBeGreaterThan(365 * 24 * 60 * 60);
  });
});

describe('staff and a customer’s sessions', () => {
  it('staff list a customer’s sessions and end one: the customer’s next call answers 401, and the audit log has it', async () => {
    const admin = await adminToken(ctx);
    const customer = await createCustomer(ctx);
    const phone = await browserSignIn(customer.email, customer.password, SAFARI_IPHONE, {}, '198.51.100.40');

    const listed = await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}/sessions`, headers: bearer(admin) });
    expect(listed.statusCode).toBe(200);
    const sessions = json(listed).data as Array<{ id: string; current: boolean; device: string; ipAddress: string }>;
    expect(sessions).toHaveLength(2);
    expect(sessions.every((session) => !session.current)).toBe(true);
    const target = sessions.find((session) => session.device === 'Safari on iPhone')!;

    const ended = await ctx.app.inject({ method: 'DELETE', url: `/api/user/admin/${customer.userId}/sessions/${target.id}`, headers: bearer(admin) });
    expect(ended.statusCode).toBe(200);
    expect(json(ended)).toEqual({ data: { ended: 1 }, message: 'Session ended' });
    expect((await me(phone.token)).statusCode).toBe(401);
    expect((await me(customer.token)).statusCode).toBe(200);

    const audit = json(await ctx.app.inject({ method: 'GET', url: '/api/admin/audit?action=session.end', headers: bearer(admin) })).data;
    expect(audit.items).toEqual([
      expect.objectContaining({
        action: 'session.end',
        actorEmail: 'admin@example.com',
        targetUserId: customer.userId,
        before: expect.objectContaining({ device: 'Safari on iPhone', ipAddress: '198.51.100.40' }),
        after: { ended: true },
      }),
    ]);
  });

  it("refuses customers, another customer's session id and unknown users, and audits nothing then", async () => {
    const admin = await adminToken(ctx);
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const mine = (await listSessions(customer.token))[0]!;
    expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}/sessions`, headers: bearer(customer.token) })).statusCode).toBe(403);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/user/admin/${customer.userId}/sessions/${mine.id}`, headers: bearer(other.token) })).statusCode,
    ).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}/sessions` })).statusCode).toBe(401);
    // The session belongs to `customer`, not to `other`: not found under `other`.
    const wrongOwner = await ctx.app.inject({ method: 'DELETE', url: `/api/user/admin/${other.userId}/sessions/${mine.id}`, headers: bearer(admin) });
    expect(wrongOwner.statusCode).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${unknown}/sessions`, headers: bearer(admin) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/user/admin/${customer.userId}/sessions/nope`, headers: bearer(admin) })).statusCode).toBe(404);
    expect((await me(customer.token)).statusCode).toBe(200);
    const audit = json(
      await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?action=session.end&customer=${other.userId}`, headers: bearer(admin) }),
    ).data;
    expect(audit.items).toEqual([]);
  });
});

describe('what a signed-in request knows of its user', () => {
  it('carries every column but the password hash, which a password change checks from the database', async () => {
    const customer = await createCustomer(ctx);
    const session = await resolveSession(ctx.context, customer.token);
    expect(session?.user).toMatchObject({ id: expect.any(String), email: customer.email, is_admin: false, is_email_confirmed: true });
    expect(session?.user).not.toHaveProperty('password_hash');
    expect(session?.user).not.toHaveProperty('search_words');

    // The hash is read fresh: a password changed elsewhere (a reset) is the one a change must name.
    const hash = await hashPassword('Another-Password-2026!');
    await sql`update users set password_hash = ${hash} where email = ${customer.email}`.execute(ctx.database.db);
    const change = (oldPassword: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: bearer(customer.token),
        payload: { oldPassword, newPassword: 'Yet-Another-Password-2026!' },
      });
    const stale = await change(customer.password);
    expect(stale.statusCode, stale.body).toBe(400);
    expect(json(stale).message).toBe('Your current password is not correct.');
    const fresh = await change('Another-Password-2026!');
    expect(fresh.statusCode, fresh.body).toBe(200);
  });
});
