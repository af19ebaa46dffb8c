import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/server/lib/logger';
import { DEMO_ADMIN_TOTP_SECRET, totpCodeAt } from '../../src/server/factors/totp';
import { seed } from '../../src/server/seed';
import { SECOND_FACTOR_REQUIRED_MESSAGE } from '../../src/shared/contracts/factors';
import { bearer, createCustomer, createTestApp, json, staffSignIn, type TestContext } from '../support/app';
import { type RegisteredRoute, type RouteProbe, watchRoutes, withoutHeadTwins } from '../support/fuzz/routes';
import { STAFF_TOTP_SECRET } from '../support/totp';

/**
 * Staff must have a second factor (issue 13, ADR 011). A production start without
 * ADMIN_TOTP_SECRET creates the first admin without one: its first sign-in opens a session that
 * can only enrol. The walk takes every route Fastify registered and calls each signed-in one with
 * that session: all but the enrolment calls answer 403 second_factor_required, the staff guard's
 * routes among them, until the admin enrols.
 */

const ADMIN = { email: 'ops@bank.example', password: 'Staff-Password-2026!' };
/** What a session without a factor may still call: who is signed in, and setting a factor up. */
const ENROLMENT_ROUTES = [
  'GET /api/auth/factors',
  'GET /api/auth/passkeys',
  'GET /api/auth/user',
  'POST /api/auth/passkeys/register',
  'POST /api/auth/passkeys/register/options',
  'POST /api/auth/totp/confirm',
  'POST /api/auth/totp/enrol',
];

let ctx: TestContext;
let probe: RouteProbe;
let routes: RegisteredRoute[];
beforeAll(async () => {
  probe = watchRoutes();
  try {
    ctx = await createTestApp({ env: { DEMO_MODE: 'false', ADMIN_TOTP_SECRET: '', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  } finally {
    probe.stop();
  }
  routes = withoutHeadTwins(probe.routes).filter((route) => route.url.startsWith('/api/'));
});
afterAll(async () => ctx?.close());

const key = (route: RegisteredRoute) => `${route.method} ${route.url}`;
/** Every path parameter gets a real customer's id (or another well-formed one): the refusal must not depend on it. */
const pathOf = (route: RegisteredRoute, id: string) => route.url.replace(/:id\b/g, id).replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000001');
const call = (route: RegisteredRoute, token: string, id: string) =>
  ctx.app.inject({
    method: route.method as 'GET',
    url: pathOf(route, id),
    headers: { ...bearer(token), 'idempotency-key': `walk-${Math.random().toString(36).slice(2)}` },
    ...(['GET', 'DELETE'].includes(route.method) ? {} : { payload: {} }),
  });

describe('a staff member without a second factor', () => {
  it('signs in to a session that can only enrol: every other signed-in route answers 403 second_factor_required', async () => {
    const customer = await createCustomer(ctx);
    const signIn = await ctx.app.inject({ method: 'POST', url: '/api/auth/admin/signin', payload: ADMIN });
    expect(signIn.statusCode).toBe(200);
    const { token, user } = json(signIn).data;
    expect(user).toMatchObject({ email: ADMIN.email, isAdmin: true });
    const factors = await ctx.app.inject({ method: 'GET', url: '/api/auth/factors', headers: bearer(token) });
    expect(json(factors).data).toEqual({ passkeys: 0, totp: false, recoveryCodesLeft: 0, enrolmentRequired: true });

    // Routes outside the /api scope's sign-in (the API reader) declare no access; the rest all do.
    const signedIn = routes.filter((route) => route.access !== undefined && route.access !== 'public');
    expect(
      signedIn
        .filter((route) => route.enrolment)
        .map(key)
        .sort(),
    ).toEqual(ENROLMENT_ROUTES);
    const walked = signedIn.filter((route) => !route.enrolment);
    // The staff guard's routes, by family: none may be missing from the walk.
    const staffGuarded = walked.filter((route) => route.access === 'staff');
    expect(staffGuarded.length).toBeGreaterThan(25);
    for (const family of ['/api/admin/', '/api/user/admin', '/api/transaction/admin/']) {
      expect(
        staffGuarded.some((route) => route.url.startsWith(family)),
        family,
      ).toBe(true);
    }
    for (const named of ['GET /api/contacts', 'DELETE /api/contacts/:id', 'GET /api/user/verification/files/:id', 'GET /api/admin/kyc']) {
      expect(walked.map(key), named).toContain(named);
    }
    expect(walked.filter((route) => /^\/api\/(admin|user\/admin|transaction\/admin)(\/|$)/.test(route.url)).every((route) => route.access === 'staff')).toBe(
      true,
    );

    const refusedOtherwise: string[] = [];
    for (const route of walked) {
      const response = await call(route, token, customer.userId);
      if (response.statusCode !== 403 || json(response).code !== 'second_factor_required')
        refusedOtherwise.push(`${key(route)} -> ${response.statusCode} ${response.body}`);
      else expect(json(response).message).toBe(SECOND_FACTOR_REQUIRED_MESSAGE);
    }
    expect(refusedOtherwise).toEqual([]);
    // Nothing a staff call would change was changed: the customer is as they were.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) })).statusCode).toBe(200);

    // Enrolling an authenticator app lifts it for this very session.
    const enrol = await ctx.app.inject({ method: 'POST', url: '/api/auth/totp/enrol', headers: bearer(token) });
    expect(enrol.statusCode).toBe(200);
    const secret = json(enrol).data.secret as string;
    const confirm = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/totp/confirm',
      headers: bearer(token),
      payload: { code: totpCodeAt(secret, new Date()) },
    });
    expect(confirm.statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: bearer(token) })).statusCode).toBe(200);
    const stillRefused: string[] = [];
    for (const route of staffGuarded) {
      const response = await call(route, token, customer.userId);
      if (response.statusCode === 403) stillRefused.push(`${key(route)} -> ${response.body}`);
    }
    expect(stillRefused).toEqual([]);

    // From now on the password alone opens no session.
    const next = await ctx.app.inject({ method: 'POST', url: '/api/auth/admin/signin', payload: ADMIN });
    expect(json(next).data).toEqual({ secondFactor: { ticket: expect.any(String), methods: ['totp', 'recovery'] } });
  });
});

describe('ADMIN_TOTP_SECRET', () => {
  it('is ignored with a warning once the first admin exists', async () => {
    const warnings: string[] = [];
    const log = { ...ctx.context.log, warn: (message: string) => warnings.push(String(message)) } as unknown as Logger;
    const adminSecret = () =>
      ctx.database.db
        .selectFrom('totp_factors')
        .innerJoin('users', 'users.id', 'totp_factors.user_id')
        .select('secret')
        .where('email', '=', ADMIN.email)
        .executeTakeFirst();
    const before = await adminSecret();
    const signIns = await seed({ ...ctx.context, log, config: { ...ctx.config, adminTotpSecret: STAFF_TOTP_SECRET } });
    // ADMIN_PASSWORD, set for this bank's first start, is read only then too.
    expect(warnings).toEqual([
      expect.stringContaining('ADMIN_PASSWORD is ignored: the first admin (ops@bank.example) exists already'),
      expect.stringContaining('ADMIN_TOTP_SECRET is ignored: the first admin (ops@bank.example) exists already'),
    ]);
    expect(signIns[0]).toMatchObject({ role: 'admin', secondFactor: { kind: before ? 'enrolled' : 'none' } });
    expect(await adminSecret()).toEqual(before);
    expect(before?.secret).not.toBe(STAFF_TOTP_SECRET);
  });

  it('enrols the first admin at first start; demo mode without it enrols the published demo secret', async () => {
    const demo = await createTestApp({ env: { ADMIN_TOTP_SECRET: '' } });
    try {
      const signIns = await seed(demo.context);
      expect(signIns[0]).toMatchObject({
        role: 'admin',
        secondFactor: {
          kind: 'demo',
          secret: DEMO_ADMIN_TOTP_SECRET,
          uri: expect.stringMatching(/^otpauth:\/\/totp\/.*secret=LEDGERLINE2DEMO2STAFF2TOTP2SECRT/),
        },
      });
      const { user } = await staffSignIn(demo, { email: 'admin@example.com', password: 'Ledgerline-Admin-2026' }, { secret: DEMO_ADMIN_TOTP_SECRET });
      expect(user.isAdmin).toBe(true);
    } finally {
      await demo.close();
    }
    // The test apps enrol ADMIN_TOTP_SECRET: a code from the demo secret opens nothing there.
    const configured = await createTestApp();
    try {
      const ticket = json(
        await configured.app.inject({
          method: 'POST',
          url: '/api/auth/admin/signin',
          payload: { email: 'admin@example.com', password: 'Ledgerline-Admin-2026' },
        }),
      ).data.secondFactor.ticket;
      const refused = await configured.app.inject({
        method: 'POST',
        url: '/api/auth/admin/signin/totp',
        payload: { ticket, code: totpCodeAt(DEMO_ADMIN_TOTP_SECRET, new Date()) },
      });
      expect(refused.statusCode).toBe(401);
      expect((await staffSignIn(configured)).user.isAdmin).toBe(true);
    } finally {
      await configured.close();
    }
  });
});
