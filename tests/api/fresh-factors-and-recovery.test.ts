import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeForStep, totpStepAt } from '../../src/server/factors/totp';
import { issueSecondFactorTicket } from '../../src/server/factors/sign-in';
import { TASKS } from '../../src/server/jobs/registry';
import { completeDueRecoveries, RECOVERY_DUE_TASK } from '../../src/server/recovery/service';
import { FRESH_FACTOR_REFUSED_MESSAGE, FRESH_FACTOR_REQUIRED_MESSAGE } from '../../src/shared/contracts/auth';
import { ACCOUNT_RECOVERY_DELAY_MS, RECOVERY_LINK_INVALID_MESSAGE } from '../../src/shared/contracts/recovery';
import { SIGN_IN_EMAIL_CODES_PER_HOUR } from '../../src/shared/limits';
import { adminToken, bearer, createCustomer, createTestApp, json, lastCode, mailbox, type TestContext } from '../support/app';
import { SoftAuthenticator } from '../support/webauthn';

/**
 * ADR 025 (issue 13): removing a factor and changing the email need a fresh second factor, mail the
 * customer (both addresses for an email) and end every other session; support recovers a customer
 * who lost every factor after 24 hours unless they cancel; resent sign-in codes count toward the
 * hourly cap. The app runs on a clock the tests move (TOTP steps, the recovery's 24 hours).
 */

let ctx: TestContext;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
beforeAll(async () => {
  ctx = await createTestApp({ clock });
});
afterAll(async () => ctx?.close());

type Headers = Record<string, string>;
const send = (method: 'POST' | 'DELETE' | 'PATCH', url: string, token: string | null, payload?: unknown, headers: Headers = {}) =>
  ctx.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
const get = (url: string, token: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const step = () => totpStepAt(clock.now());
const nextStep = () => {
  offsetMs += 30_000;
};
const signInPassword = (email: string, password: string) => send('POST', '/api/auth/signin', null, { email, password });
const otherSession = async (email: string, password: string): Promise<string> => json(await signInPassword(email, password)).data.token as string;

async function customerWithTotp() {
  const customer = await createCustomer(ctx);
  const other = await otherSession(customer.email, customer.password);
  const { secret } = json(await send('POST', '/api/auth/totp/enrol', customer.token)).data as { secret: string };
  const confirm = await send('POST', '/api/auth/totp/confirm', customer.token, { code: totpCodeForStep(secret, step()) });
  expect(confirm.statusCode, confirm.body).toBe(201);
  nextStep();
  return { ...customer, secret, other, recoveryCodes: json(confirm).data.recoveryCodes as string[] };
}

/**
 * The job's run at a later time: its own clock, as the job runner would read it then (the app's
 * clock stays, so the sessions the test opens keep their age).
 */
const runRecoveriesAt = (laterMs: number) => completeDueRecoveries({ ...ctx.context, clock: { now: () => new Date(clock.now().getTime() + laterMs) } });

const factorsOf = async (token: string) => json(await get('/api/auth/factors', token)).data as { passkeys: number; totp: boolean; recoveryCodesLeft: number };
const mailsTo = async (to: string, subject: RegExp) => (await mailbox(ctx)).filter((mail) => mail.to === to && subject.test(mail.subject));

describe('removing a factor', () => {
  it('is refused without a fresh factor, or with a wrong or used one, and then nothing changes', async () => {
    const customer = await customerWithTotp();
    const missing = await send('DELETE', '/api/auth/totp', customer.token);
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ message: FRESH_FACTOR_REQUIRED_MESSAGE, fields: { secondFactorCode: FRESH_FACTOR_REQUIRED_MESSAGE } });
    const wrongCode = String((Number(totpCodeForStep(customer.secret, step())) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await send('DELETE', '/api/auth/totp', customer.token, { secondFactorCode: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toBe(FRESH_FACTOR_REFUSED_MESSAGE);
    const malformed = await send('DELETE', '/api/auth/totp', customer.token, { secondFactorCode: '<script>' });
    expect(malformed.statusCode).toBe(400);
    expect(await factorsOf(customer.token)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect((await get('/api/auth/user', customer.other)).statusCode).toBe(200);
    expect(await mailsTo(customer.email, /authenticator app was removed/)).toEqual([]);
  });

  it('removes the app with a fresh code from it: other sessions end, this one stays, the owner is emailed', async () => {
    const customer = await customerWithTotp();
    const removed = await send('DELETE', '/api/auth/totp', customer.token, { secondFactorCode: totpCodeForStep(customer.secret, step()) });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(removed)).toEqual({ data: null, message: 'Authenticator app removed, with its recovery codes.' });
    expect(await factorsOf(customer.token)).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect((await get('/api/auth/user', customer.token)).statusCode).toBe(200);
    expect((await get('/api/auth/user', customer.other)).statusCode).toBe(401);
    expect(await mailsTo(customer.email, /authenticator app was removed/)).toHaveLength(1);
  });

  it('takes a recovery code (spent) as the fresh factor', async () => {
    const customer = await customerWithTotp();
    const removed = await send('DELETE', '/api/auth/totp', customer.token, { secondFactorCode: customer.recoveryCodes[3] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await factorsOf(customer.token)).toMatchObject({ totp: false });
  });

  it('removes a passkey only with a passkey answering a step-up challenge (or a code), once; someone else’s passkey is not found', async () => {
    const customer = await createCustomer(ctx);
    const other = await otherSession(customer.email, customer.password);
    const authenticator = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
    const options = json(await send('POST', '/api/auth/passkeys/register/options', customer.token)).data;
    const registered = await send('POST', '/api/auth/passkeys/register', customer.token, { name: 'Laptop', response: authenticator.register(options) });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = json(registered).data.id as string;

    const missing = await send('DELETE', `/api/auth/passkeys/${id}`, customer.token);
    expect(missing.statusCode).toBe(400);
    expect(json(missing).message).toBe(FRESH_FACTOR_REQUIRED_MESSAGE);
    // A sign-in challenge is not a step-up one.
    const signInOptions = json(await send('POST', '/api/auth/signin/passkey/options', null, {})).data;
    const wrongChallenge = await send('DELETE', `/api/auth/passkeys/${id}`, customer.token, { secondFactorPasskey: authenticator.assert(signInOptions) });
    expect(wrongChallenge.statusCode).toBe(400);
    expect(json(wrongChallenge).message).toBe(FRESH_FACTOR_REFUSED_MESSAGE);
    expect(json(await get('/api/auth/passkeys', customer.token)).data).toHaveLength(1);

    const intruder = await createCustomer(ctx);
    expect((await send('DELETE', `/api/auth/passkeys/${id}`, intruder.token, { secondFactorCode: '123456' })).statusCode).toBe(404);

    const stepUp = json(await send('POST', '/api/auth/step-up/passkey/options', customer.token)).data;
    const assertion = authenticator.assert(stepUp);
    const removed = await send('DELETE', `/api/auth/passkeys/${id}`, customer.token, { secondFactorPasskey: assertion });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(await get('/api/auth/passkeys', customer.token)).data).toEqual([]);
    expect((await get('/api/auth/user', other)).statusCode).toBe(401);
    expect(await mailsTo(customer.email, /passkey "Laptop" was removed/)).toHaveLength(1);
  });
});

describe('changing the email', () => {
  const patch = (token: string, body: Record<string, unknown>) => send('PATCH', '/api/user/profile', token, body);

  it('needs a fresh factor to start when the account has one, mails both addresses and ends the other sessions', async () => {
    const customer = await customerWithTotp();
    const newEmail = `moved.${Date.now()}@example.com`;
    const missing = await patch(customer.token, { email: newEmail, password: customer.password });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ message: FRESH_FACTOR_REQUIRED_MESSAGE, fields: { secondFactorCode: FRESH_FACTOR_REQUIRED_MESSAGE } });
    const wrong = await patch(customer.token, { email: newEmail, password: customer.password, secondFactorCode: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect((await mailbox(ctx)).filter((mail) => mail.to === newEmail)).toEqual([]);

    const started = await patch(customer.token, { email: newEmail, password: customer.password, secondFactorCode: totpCodeForStep(customer.secret, step()) });
    expect(started.statusCode, started.body).toBe(200);
    expect(json(started)).toMatchObject({ emailChangePending: true, pendingEmail: newEmail });
    expect((await get('/api/auth/user', customer.other)).statusCode).toBe(200);

    const confirmed = await patch(customer.token, { email: newEmail, emailCode: await lastCode(ctx, newEmail) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(json(confirmed).data.email).toBe(newEmail);
    const oldMail = await mailsTo(customer.email, /your email address was changed/);
    const newMail = await mailsTo(newEmail, /your email address was changed/);
    expect(oldMail).toHaveLength(1);
    expect(newMail).toHaveLength(1);
    expect(oldMail[0]!.text).toContain(`from ${customer.email} to ${newEmail}`);
    expect((await get('/api/auth/user', customer.token)).statusCode).toBe(200);
    expect((await get('/api/auth/user', customer.other)).statusCode).toBe(401);
  });

  it('still needs only the password to start for an account without a factor, and ends other sessions when it takes effect', async () => {
    const customer = await createCustomer(ctx);
    const other = await otherSession(customer.email, customer.password);
    const newEmail = `plain.${Date.now()}@example.com`;
    expect((await patch(customer.token, { email: newEmail, password: customer.password })).statusCode).toBe(200);
    const confirmed = await patch(customer.token, { email: newEmail, emailCode: await lastCode(ctx, newEmail) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await get('/api/auth/user', other)).statusCode).toBe(401);
    expect(await mailsTo(customer.email, /your email address was changed/)).toHaveLength(1);
    expect(await mailsTo(newEmail, /your email address was changed/)).toHaveLength(1);
  });
});

describe('support recovery', () => {
  const start = (token: string, userId: string, body: unknown) => send('POST', `/api/user/admin/${userId}/recovery`, token, body);
  const auditOf = async (userId: string) =>
    (
      await ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'actor_email', 'reason'])
        .where('target_user_id', '=', userId)
        .where('action', 'like', 'account_recovery.%')
        .orderBy('id')
        .execute()
    ).map((row) => ({ action: row.action, actor: row.actor_email, reason: row.reason }));
  const cancelLinkToken = async (email: string) => {
    const mail = (await mailsTo(email, /account recovery requested/))[0];
    return mail?.text.match(/cancel-recovery\?token=([A-Za-z0-9_-]+)/)?.[1];
  };

  it('needs a recorded identity check, is for customers only, and answers 404 for nobody', async () => {
    const staff = await adminToken(ctx);
    const customer = await createCustomer(ctx);
    for (const body of [{}, { identityCheck: '' }, { identityCheck: '   ' }, { identityCheck: 'x'.repeat(1001) }, { identityCheck: 'ok\u0000' }]) {
      const refused = await start(staff, customer.userId, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await auditOf(customer.userId)).toEqual([]);
    const adminId = json(await get('/api/auth/user', staff)).data._id as string;
    expect((await start(staff, adminId, { identityCheck: 'Video call' })).statusCode).toBe(400);
    expect((await start(staff, '018f0000-0000-7000-8000-000000000000', { identityCheck: 'Video call' })).statusCode).toBe(404);
    // Customers cannot start one.
    expect((await start(customer.token, customer.userId, { identityCheck: 'me' })).statusCode).toBe(403);
  });

  it('takes effect after 24 hours, not before: factors removed, every session ended, the password alone signs in; audited and on the timeline', async () => {
    const staff = await adminToken(ctx);
    const customer = await customerWithTotp();
    expect(json(await signInPassword(customer.email, customer.password)).data.secondFactor.methods).toEqual(['totp', 'recovery']);
    const check = 'Video call 2026-11-24 14:05, passport shown and matched the KYC photo; security question answered';
    const started = await start(staff, customer.userId, { identityCheck: check });
    expect(started.statusCode, started.body).toBe(201);
    const recovery = json(started).data;
    expect(recovery).toMatchObject({ userId: customer.userId, status: 'pending', identityCheck: check, startedBy: 'admin@example.com' });
    expect(new Date(recovery.effectiveAt).getTime() - new Date(recovery.createdAt).getTime()).toBe(ACCOUNT_RECOVERY_DELAY_MS);
    expect(json(started).message).toMatch(/24 hours/);
    // One at a time.
    expect((await start(staff, customer.userId, { identityCheck: 'again' })).statusCode).toBe(409);
    // The customer is emailed at once, with the cancel link; their session sees it.
    expect(await cancelLinkToken(customer.email)).toEqual(expect.any(String));
    expect(json(await get('/api/auth/recovery', customer.token)).data).toMatchObject({ id: recovery.id, effectiveAt: recovery.effectiveAt });

    // A minute before: nothing happens.
    expect(await runRecoveriesAt(ACCOUNT_RECOVERY_DELAY_MS - 60_000)).toBe(0);
    expect(await ctx.database.db.selectFrom('totp_factors').select('user_id').where('user_id', '=', customer.userId).execute()).toHaveLength(1);
    expect(json(await signInPassword(customer.email, customer.password)).data.secondFactor).toBeDefined();

    // Past 24 hours: it takes effect once.
    const liveSessions = await ctx.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', customer.userId)
      .where('ended_at', 'is', null)
      .execute();
    expect(liveSessions.length).toBeGreaterThan(0);
    expect(await runRecoveriesAt(ACCOUNT_RECOVERY_DELAY_MS + 1_000)).toBe(1);
    expect(await runRecoveriesAt(ACCOUNT_RECOVERY_DELAY_MS + 2_000)).toBe(0);
    expect(await ctx.database.db.selectFrom('totp_factors').select('user_id').where('user_id', '=', customer.userId).execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom('recovery_codes').select('user_id').where('user_id', '=', customer.userId).execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom('sessions').select('id').where('user_id', '=', customer.userId).where('ended_at', 'is', null).execute()).toEqual(
      [],
    );
    const signedIn = await signInPassword(customer.email, customer.password);
    expect(signedIn.statusCode).toBe(200);
    expect(json(signedIn).data).toEqual({ token: expect.any(String), user: expect.objectContaining({ email: customer.email }) });
    expect(await mailsTo(customer.email, /your account was recovered/)).toHaveLength(1);

    const freshStaff = await adminToken(ctx, { fresh: true });
    const latest = json(await get(`/api/user/admin/${customer.userId}/recovery`, freshStaff)).data;
    expect(latest).toMatchObject({ id: recovery.id, status: 'completed', completedAt: expect.any(String) });
    expect(await auditOf(customer.userId)).toEqual([
      { action: 'account_recovery.start', actor: 'admin@example.com', reason: check },
      { action: 'account_recovery.complete', actor: null, reason: null },
    ]);
    const timeline = json(await get(`/api/user/admin/${customer.userId}/timeline`, freshStaff)).data.items as Array<{
      kind: string;
      title: string;
      detail: string | null;
    }>;
    const steps = timeline.filter((event) => event.kind === 'recovery');
    expect(steps.map((event) => event.title)).toEqual(['Account recovered: second factors removed', 'Account recovery started (takes effect in 24 hours)']);
    expect(steps[1]!.detail).toBe(check);
  });

  it('is cancelled by the mailed link (once), or from a signed-in session; a cancelled one never takes effect', async () => {
    const staff = await adminToken(ctx, { fresh: true });
    const byLink = await customerWithTotp();
    expect((await start(staff, byLink.userId, { identityCheck: 'Phone call, callback to the number on file' })).statusCode).toBe(201);
    const token = await cancelLinkToken(byLink.email);
    expect((await send('POST', '/api/account-recovery/cancel', null, { token: 'x'.repeat(43) })).statusCode).toBe(404);
    expect((await send('POST', '/api/account-recovery/cancel', null, { token: 'short' })).statusCode).toBe(400);
    const cancelled = await send('POST', '/api/account-recovery/cancel', null, { token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json(cancelled)).toEqual({ data: null, message: 'The account recovery was cancelled. Nothing was changed.' });
    const again = await send('POST', '/api/account-recovery/cancel', null, { token });
    expect(again.statusCode).toBe(404);
    expect(json(again).message).toBe(RECOVERY_LINK_INVALID_MESSAGE);

    const bySession = await customerWithTotp();
    expect((await start(staff, bySession.userId, { identityCheck: 'In branch, driving licence' })).statusCode).toBe(201);
    // Another customer has none to cancel, and cannot touch this one.
    const stranger = await createCustomer(ctx);
    expect((await send('POST', '/api/auth/recovery/cancel', stranger.token)).statusCode).toBe(404);
    expect(json(await get('/api/auth/recovery', stranger.token)).data).toBeNull();
    const mine = await send('POST', '/api/auth/recovery/cancel', bySession.token);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(json(await get('/api/auth/recovery', bySession.token)).data).toBeNull();

    expect(await runRecoveriesAt(ACCOUNT_RECOVERY_DELAY_MS + 60_000)).toBe(0);
    for (const customer of [byLink, bySession]) {
      expect(await ctx.database.db.selectFrom('totp_factors').select('user_id').where('user_id', '=', customer.userId).execute()).toHaveLength(1);
      expect(await mailsTo(customer.email, /account recovery cancelled/)).toHaveLength(1);
    }
    expect((await auditOf(byLink.userId)).map((row) => row.action)).toEqual(['account_recovery.start', 'account_recovery.cancel']);
    expect((await auditOf(bySession.userId)).map((row) => row.action)).toEqual(['account_recovery.start', 'account_recovery.cancel']);
    const freshStaff = await adminToken(ctx, { fresh: true });
    expect(json(await get(`/api/user/admin/${byLink.userId}/recovery`, freshStaff)).data).toMatchObject({ status: 'cancelled', cancelledVia: 'link' });
    expect(json(await get(`/api/user/admin/${bySession.userId}/recovery`, freshStaff)).data).toMatchObject({ status: 'cancelled', cancelledVia: 'session' });
  });

  it('runs as a scheduled graphile-worker task', () => {
    expect(TASKS.find((task) => task.identifier === RECOVERY_DUE_TASK)).toMatchObject({ schedule: '*/5 * * * *' });
  });
});

describe('resending an emailed sign-in code', () => {
  it(`counts toward the ${SIGN_IN_EMAIL_CODES_PER_HOUR}-an-hour cap for browsers the owner has not used`, async () => {
    const customer = await createCustomer(ctx);
    const user = await ctx.database.db.selectFrom('users').selectAll().where('id', '=', customer.userId).executeTakeFirstOrThrow();
    const codeMails = async () => (await mailsTo(customer.email, /sign-in code/)).length;
    const { ticket } = await issueSecondFactorTicket(ctx.context, user, ['email'], 'customer');
    expect(await codeMails()).toBe(1);
    for (let sent = 2; sent <= SIGN_IN_EMAIL_CODES_PER_HOUR; sent += 1) {
      offsetMs += 61_000;
      const resent = await send('POST', '/api/auth/signin/email-code/resend', null, { ticket });
      expect(resent.statusCode, resent.body).toBe(200);
      expect(await codeMails()).toBe(sent);
    }
    offsetMs += 61_000;
    const capped = await send('POST', '/api/auth/signin/email-code/resend', null, { ticket });
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expect(await codeMails()).toBe(SIGN_IN_EMAIL_CODES_PER_HOUR);
    // A new ticket is capped too: resends and tickets share one count.
    await expect(issueSecondFactorTicket(ctx.context, user, ['email'], 'customer')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await codeMails()).toBe(SIGN_IN_EMAIL_CODES_PER_HOUR);
    // An hour after the first, one more is allowed.
    offsetMs += 60 * 60 * 1000;
    expect((await send('POST', '/api/auth/signin/email-code/resend', null, { ticket })).statusCode).toBe(401); // the ticket itself has expired
    await issueSecondFactorTicket(ctx.context, user, ['email'], 'customer');
    expect(await codeMails()).toBe(SIGN_IN_EMAIL_CODES_PER_HOUR + 1);
  });
});
