import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeForStep, totpStepAt } from '../../src/server/factors/totp';
import { issueSecondFactorTicket } from '../../src/server/factors/sign-in';
import { FRESH_FACTOR_REFUSED_MESSAGE, FRESH_FACTOR_REQUIRED_MESSAGE } from '../../src/shared/contracts/auth';
import {
  METHOD_NOT_OFFERED_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  SIGN_IN_TICKET_TTL_MS,
  TICKET_EXHAUSTED_MESSAGE,
  TICKET_INVALID_MESSAGE,
  TOTP_REPLAYED_MESSAGE,
} from '../../src/shared/contracts/factors';
import { bearer, createCustomer, createTestApp, json, mailbox, staffSignIn, type TestContext } from '../support/app';
import { foreignChallenge, SoftAuthenticator } from '../support/webauthn';

/**
 * Second factors (issue 13, ADR 011): the sign-in contract with a ticket, TOTP enrolment and its
 * replay rule, recovery codes, emailed codes and passkeys (a software authenticator signs for
 * real). The app runs on a clock the tests move, so a ticket's 5 minutes and the 30-second TOTP
 * steps are exact, not waited for.
 */

let ctx: TestContext;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
beforeAll(async () => {
  ctx = await createTestApp({ clock });
});
afterAll(async () => ctx?.close());

type Headers = Record<string, string>;
const post = (url: string, payload: unknown = {}, headers: Headers = {}) => ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });
const get = (url: string, token: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const step = () => totpStepAt(clock.now());
const code = (secret: string, at: number) => totpCodeForStep(secret, at);
/** The next 30-second step begins (the test's clock moves; nothing waits). */
const nextStep = () => {
  offsetMs += 30_000;
};

async function passwordStep(email: string, password: string, url = '/api/auth/signin') {
  const response = await post(url, { email, password });
  expect(response.statusCode, response.body).toBe(200);
  return { response, ...(json(response).data.secondFactor as { ticket: string; methods: string[] }) };
}

/** A verified customer with a confirmed authenticator app: the step its confirming code used is spent. */
async function customerWithTotp() {
  const customer = await createCustomer(ctx);
  const enrol = await post('/api/auth/totp/enrol', {}, bearer(customer.token));
  expect(enrol.statusCode, enrol.body).toBe(200);
  const { secret, uri } = json(enrol).data as { secret: string; uri: string };
  const confirmedStep = step();
  const confirm = await post('/api/auth/totp/confirm', { code: code(secret, confirmedStep) }, bearer(customer.token));
  expect(confirm.statusCode, confirm.body).toBe(201);
  return { ...customer, secret, uri, confirmedStep, recoveryCodes: json(confirm).data.recoveryCodes as string[] };
}

describe('accounts without a second factor', () => {
  it('keep the one-step sign-in: token and user, and the session cookie', async () => {
    const customer = await createCustomer(ctx);
    const response = await post('/api/auth/signin', { email: customer.email, password: customer.password });
    expect(response.statusCode).toBe(200);
    expect(json(response).data).toEqual({ token: expect.any(String), user: expect.objectContaining({ email: customer.email }) });
    expect(response.cookies.some((cookie) => cookie.name === 'll_session')).toBe(true);
    expect(json(await get('/api/auth/factors', customer.token)).data).toEqual({ passkeys: 0, totp: false, recoveryCodesLeft: 0, enrolmentRequired: false });
  });
});

describe('authenticator app (TOTP)', () => {
  it('enrols with a QR code URI, confirms with a first code, shows 10 recovery codes once and never the secret again', async () => {
    const customer = await createCustomer(ctx);
    const enrol = await post('/api/auth/totp/enrol', {}, bearer(customer.token));
    expect(enrol.statusCode).toBe(200);
    const { secret, uri } = json(enrol).data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.*\\?.*secret=${secret}`));
    expect(uri).toContain('algorithm=SHA1');
    expect(uri).toContain('digits=6');
    expect(uri).toContain('period=30');
    // Pending until confirmed: not a factor yet, and a sign-in still needs no second step.
    expect(json(await get('/api/auth/factors', customer.token)).data.totp).toBe(false);
    expect(json(await post('/api/auth/signin', { email: customer.email, password: customer.password })).data.token).toEqual(expect.any(String));

    const wrong = await post('/api/auth/totp/confirm', { code: code(secret, step() + 5) }, bearer(customer.token));
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toMatchObject({ message: 'The code is not correct.', fields: { code: 'The code is not correct.' } });
    const malformed = await post('/api/auth/totp/confirm', { code: '12ab56' }, bearer(customer.token));
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed).message).toBe('Enter the 6-digit code');

    const confirm = await post('/api/auth/totp/confirm', { code: code(secret, step()) }, bearer(customer.token));
    expect(confirm.statusCode).toBe(201);
    const codes = json(confirm).data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const recovery of codes) expect(recovery).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    expect(json(await get('/api/auth/factors', customer.token)).data).toEqual({ passkeys: 0, totp: true, recoveryCodesLeft: 10, enrolmentRequired: false });

    // Never again: a second enrolment is refused without the secret, and the codes are stored hashed.
    const again = await post('/api/auth/totp/enrol', {}, bearer(customer.token));
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(secret);
    const stored = await ctx.database.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', customer.userId).execute();
    expect(stored).toHaveLength(10);
    for (const recovery of codes) expect(stored.map((row) => row.code_hash).join()).not.toContain(recovery.replaceAll('-', ''));
    const mails = await mailbox(ctx);
    expect(mails.find((mail) => mail.to === customer.email && mail.subject.includes('An authenticator app was set up'))).toBeDefined();
  });

  it('signs in in two steps: the password answers a ticket and no session, the code answers token and user', async () => {
    const customer = await customerWithTotp();
    const first = await passwordStep(customer.email, customer.password);
    expect(first.methods).toEqual(['totp', 'recovery']);
    expect(first.ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(first.response.cookies.some((cookie) => cookie.name === 'll_session')).toBe(false);
    expect(json(first.response).data.token).toBeUndefined();

    const second = await post('/api/auth/signin/totp', { ticket: first.ticket, code: code(customer.secret, customer.confirmedStep + 1) });
    expect(second.statusCode, second.body).toBe(200);
    const { token, user } = json(second).data;
    expect(user).toMatchObject({ email: customer.email, isAdmin: false });
    expect(second.cookies.find((cookie) => cookie.name === 'll_session')?.value).toBe(token);
    expect(second.cookies.some((cookie) => cookie.name === 'll_device')).toBe(true);
    expect((await get('/api/auth/user', token)).statusCode).toBe(200);
  });

  it('accepts a code once: a replay in the same step is refused, and so is an older step', async () => {
    const customer = await customerWithTotp();
    // The code that confirmed the app is spent already.
    const replayOfConfirm = await post('/api/auth/signin/totp', {
      ticket: (await passwordStep(customer.email, customer.password)).ticket,
      code: code(customer.secret, customer.confirmedStep),
    });
    expect(replayOfConfirm.statusCode).toBe(401);
    expect(json(replayOfConfirm).message).toBe(`${TOTP_REPLAYED_MESSAGE} 4 attempts left.`);

    nextStep();
    // The step is taken once: the test's clock follows real time, and a 30-second boundary may pass
    // before the last check.
    const used = step();
    const fresh = code(customer.secret, used);
    const signedIn = await post('/api/auth/signin/totp', { ticket: (await passwordStep(customer.email, customer.password)).ticket, code: fresh });
    expect(signedIn.statusCode).toBe(200);
    // The same code again, in the same 30 seconds, from another sign-in: refused.
    const replay = await post('/api/auth/signin/totp', { ticket: (await passwordStep(customer.email, customer.password)).ticket, code: fresh });
    expect(replay.statusCode).toBe(401);
    expect(json(replay).message).toContain(TOTP_REPLAYED_MESSAGE);
    // The previous step's code is inside the window but older than the one used: refused too.
    const older = await post('/api/auth/signin/totp', {
      ticket: (await passwordStep(customer.email, customer.password)).ticket,
      code: code(customer.secret, used - 1),
    });
    expect(older.statusCode).toBe(401);
    expect(json(older).message).toContain(TOTP_REPLAYED_MESSAGE);
    const row = await ctx.database.db.selectFrom('totp_factors').select('last_used_step').where('user_id', '=', customer.userId).executeTakeFirstOrThrow();
    expect(row.last_used_step).toBe(used);
  });

  it('removes the app with its recovery codes: the sign-in is one step again', async () => {
    const customer = await customerWithTotp();
    // With a fresh code from the app (ADR 025; tests/api/fresh-factors-and-recovery.test.ts refuses it without one).
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/auth/totp',
      headers: bearer(customer.token),
      payload: { secondFactorCode: code(customer.secret, customer.confirmedStep + 1) },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(removed)).toEqual({ data: null, message: 'Authenticator app removed, with its recovery codes.' });
    expect(json(await get('/api/auth/factors', customer.token)).data).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect(json(await post('/api/auth/signin', { email: customer.email, password: customer.password })).data.token).toEqual(expect.any(String));
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/auth/totp', headers: bearer(customer.token) })).statusCode).toBe(404);
  });
});

describe('the sign-in ticket', () => {
  it('lives 5 minutes', async () => {
    const customer = await customerWithTotp();
    const late = await passwordStep(customer.email, customer.password);
    const inTime = await passwordStep(customer.email, customer.password);
    offsetMs += SIGN_IN_TICKET_TTL_MS - 1000;
    const justInTime = await post('/api/auth/signin/totp', { ticket: inTime.ticket, code: code(customer.secret, step()) });
    expect(justInTime.statusCode, justInTime.body).toBe(200);
    offsetMs += 2000;
    nextStep();
    const expired = await post('/api/auth/signin/totp', { ticket: late.ticket, code: code(customer.secret, step()) });
    expect(expired.statusCode).toBe(401);
    expect(json(expired)).toEqual({ message: TICKET_INVALID_MESSAGE, code: 'unauthorized' });
  });

  it('allows 5 attempts: the fifth wrong code spends it, and the right code is refused after', async () => {
    const customer = await customerWithTotp();
    const { ticket } = await passwordStep(customer.email, customer.password);
    const messages: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await post('/api/auth/signin/totp', {
        ticket,
        code: String((Number(code(customer.secret, step() + 1)) + 1 + attempt) % 1_000_000).padStart(6, '0'),
      });
      expect(wrong.statusCode).toBe(401);
      messages.push(json(wrong).message);
    }
    expect(messages).toEqual([
      'The code is not correct. 4 attempts left.',
      'The code is not correct. 3 attempts left.',
      'The code is not correct. 2 attempts left.',
      'The code is not correct. 1 attempt left.',
      TICKET_EXHAUSTED_MESSAGE,
    ]);
    const right = await post('/api/auth/signin/totp', { ticket, code: code(customer.secret, customer.confirmedStep + 1) });
    expect(right.statusCode).toBe(401);
    expect(json(right).message).toBe(TICKET_EXHAUSTED_MESSAGE);
    // The right code was not spent by the refused try: a new sign-in takes it.
    const again = await post('/api/auth/signin/totp', {
      ticket: (await passwordStep(customer.email, customer.password)).ticket,
      code: code(customer.secret, customer.confirmedStep + 1),
    });
    expect(again.statusCode).toBe(200);
  });

  it('is used once', async () => {
    const customer = await customerWithTotp();
    const { ticket } = await passwordStep(customer.email, customer.password);
    expect((await post('/api/auth/signin/totp', { ticket, code: code(customer.secret, customer.confirmedStep + 1) })).statusCode).toBe(200);
    nextStep();
    const reuse = await post('/api/auth/signin/recovery', { ticket, code: customer.recoveryCodes[0] });
    expect(reuse.statusCode).toBe(401);
    expect(json(reuse).message).toBe(TICKET_INVALID_MESSAGE);
    expect(json(await get('/api/auth/factors', customer.token)).data.recoveryCodesLeft).toBe(10);
  });

  it("is bound to the sign-in it came from: a customer's ticket does nothing at the staff sign-in, a staff ticket nothing at the customer's", async () => {
    const customer = await customerWithTotp();
    const { ticket } = await passwordStep(customer.email, customer.password);
    const atStaff = await post('/api/auth/admin/signin/totp', { ticket, code: code(customer.secret, customer.confirmedStep + 1) });
    expect(atStaff.statusCode).toBe(401);
    expect(json(atStaff).message).toBe(TICKET_INVALID_MESSAGE);
    expect((await post('/api/auth/admin/signin/recovery', { ticket, code: customer.recoveryCodes[0] })).statusCode).toBe(401);
    expect((await post('/api/auth/admin/signin/passkey/options', { ticket })).statusCode).toBe(401);
    // Still whole at its own sign-in: the refusals above spent nothing.
    const atCustomer = await post('/api/auth/signin/totp', { ticket, code: code(customer.secret, customer.confirmedStep + 1) });
    expect(atCustomer.statusCode).toBe(200);
    expect(json(await get('/api/auth/factors', customer.token)).data.recoveryCodesLeft).toBe(10);

    const staff = await passwordStep('admin@example.com', 'Ledgerline-Admin-2026', '/api/auth/admin/signin');
    expect(staff.methods).toEqual(['totp']);
    const staffAtCustomer = await post('/api/auth/signin/totp', { ticket: staff.ticket, code: '123456' });
    expect(staffAtCustomer.statusCode).toBe(401);
    expect(json(staffAtCustomer).message).toBe(TICKET_INVALID_MESSAGE);
  });

  it("is bound to its user: another customer's code does not open it", async () => {
    const alice = await customerWithTotp();
    const bob = await customerWithTotp();
    const { ticket } = await passwordStep(alice.email, alice.password);
    const bobs = await post('/api/auth/signin/totp', { ticket, code: code(bob.secret, bob.confirmedStep + 1) });
    expect(bobs.statusCode).toBe(401);
    expect(json(bobs).message).toBe('The code is not correct. 4 attempts left.');
    const bobsRecovery = await post('/api/auth/signin/recovery', { ticket, code: bob.recoveryCodes[0] });
    expect(bobsRecovery.statusCode).toBe(401);
    expect(json(await get('/api/auth/factors', bob.token)).data.recoveryCodesLeft).toBe(10);
  });

  it('answers only the methods it offers, and refuses malformed tickets and codes with 400', async () => {
    const customer = await customerWithTotp();
    const { ticket } = await passwordStep(customer.email, customer.password);
    const email = await post('/api/auth/signin/email-code', { ticket, code: '123456' });
    expect(email.statusCode).toBe(400);
    expect(json(email).message).toBe(METHOD_NOT_OFFERED_MESSAGE);
    expect((await post('/api/auth/signin/passkey/options', { ticket })).statusCode).toBe(400);
    for (const body of [{}, { ticket }, { ticket: 'short', code: '123456' }, { ticket: `${ticket}\u0000`, code: '123456' }, { ticket, code: 123456 }]) {
      const response = await post('/api/auth/signin/totp', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof json(response).message).toBe('string');
    }
    expect((await post('/api/auth/signin/totp', { ticket: 'A'.repeat(43), code: '123456' })).statusCode).toBe(401);
  });
});

describe('recovery codes', () => {
  it('each signs in once, typed in any case and with spaces', async () => {
    const customer = await customerWithTotp();
    const [first] = customer.recoveryCodes;
    const typed = first!.toUpperCase().replaceAll('-', ' ');
    const signedIn = await post('/api/auth/signin/recovery', { ticket: (await passwordStep(customer.email, customer.password)).ticket, code: typed });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(json(signedIn).data.user.email).toBe(customer.email);
    const again = await post('/api/auth/signin/recovery', { ticket: (await passwordStep(customer.email, customer.password)).ticket, code: first });
    expect(again.statusCode).toBe(401);
    expect(json(again).message).toBe('This recovery code is not correct or was already used. 4 attempts left.');
    expect(json(await get('/api/auth/factors', customer.token)).data.recoveryCodesLeft).toBe(9);
  });
});

describe('emailed codes (the "email" method)', () => {
  it('mails a code with the ticket, signs in with it once, and resends at most once a minute', async () => {
    const customer = await createCustomer(ctx);
    const user = await ctx.database.db.selectFrom('users').selectAll().where('id', '=', customer.userId).executeTakeFirstOrThrow();
    const { ticket, methods } = await issueSecondFactorTicket(ctx.context, user, ['email'], 'customer');
    expect(methods).toEqual(['email']);
    const mailedCode = async () => {
      const mail = (await mailbox(ctx)).find((entry) => entry.to === customer.email && entry.subject.includes('sign-in code'));
      return mail!.text.match(/\b(\d{6})\b/)![1]!;
    };
    const firstCode = await mailedCode();

    const tooSoon = await post('/api/auth/signin/email-code/resend', { ticket });
    expect(tooSoon.statusCode).toBe(429);
    expect(json(tooSoon).message).toBe('Please wait a minute before asking for another code.');
    offsetMs += 61_000;
    const resent = await post('/api/auth/signin/email-code/resend', { ticket });
    expect(resent.statusCode).toBe(200);
    expect(json(resent)).toEqual({ data: null, message: 'We emailed you a sign-in code.' });
    const secondCode = await mailedCode();
    expect(secondCode).not.toBe(firstCode);

    // The first code stopped working when the second was sent (unless the two happen to be equal).
    const old = await post('/api/auth/signin/email-code', { ticket, code: firstCode });
    expect(old.statusCode).toBe(401);
    const signedIn = await post('/api/auth/signin/email-code', { ticket, code: secondCode });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(json(signedIn).data.user.email).toBe(customer.email);
    expect((await post('/api/auth/signin/email-code', { ticket, code: secondCode })).statusCode).toBe(401);
    // A resend is not an attempt and needs an open ticket.
    expect((await post('/api/auth/signin/email-code/resend', { ticket })).statusCode).toBe(401);
  });
});

describe('passkeys', () => {
  async function customerWithPasskey() {
    const customer = await createCustomer(ctx);
    const authenticator = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
    const options = json(await post('/api/auth/passkeys/register/options', {}, bearer(customer.token))).data;
    const registered = await post('/api/auth/passkeys/register', { name: 'Work laptop', response: authenticator.register(options) }, bearer(customer.token));
    expect(registered.statusCode, registered.body).toBe(201);
    return { ...customer, authenticator, passkey: json(registered).data as { id: string; name: string } };
  }

  it('registers a discoverable passkey for PUBLIC_URL, lists, renames and removes it', async () => {
    const customer = await createCustomer(ctx);
    const optionsResponse = await post('/api/auth/passkeys/register/options', {}, bearer(customer.token));
    expect(optionsResponse.statusCode).toBe(200);
    const options = json(optionsResponse).data;
    expect(options.rp).toEqual({ name: ctx.config.bankName, id: 'localhost' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    expect(options.user.name).toBe(customer.email);

    const authenticator = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
    const registered = await post('/api/auth/passkeys/register', { response: authenticator.register(options) }, bearer(customer.token));
    expect(registered.statusCode, registered.body).toBe(201);
    expect(json(registered)).toEqual({
      data: { id: expect.any(String), name: expect.stringMatching(/^Passkey on /), createdAt: expect.any(String), lastUsedAt: null },
      message: 'Passkey added.',
    });
    const id = json(registered).data.id;
    const stored = await ctx.database.db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      user_id: customer.userId,
      credential_id: authenticator.credentials[0]!.id.toString('base64url'),
      counter: 0,
      transports: ['internal'],
    });
    expect(stored.public_key.length).toBeGreaterThan(60);

    // The options' challenge worked once.
    const replay = await post('/api/auth/passkeys/register', { response: authenticator.register(options) }, bearer(customer.token));
    expect(replay.statusCode).toBe(400);
    expect(json(replay).message).toBe(PASSKEY_REFUSED_MESSAGE);

    const renamed = await ctx.app.inject({ method: 'PATCH', url: `/api/auth/passkeys/${id}`, headers: bearer(customer.token), payload: { name: '  Phone  ' } });
    expect(renamed.statusCode).toBe(200);
    expect(json(renamed).data.name).toBe('Phone');
    expect(json(await get('/api/auth/passkeys', customer.token)).data).toEqual([expect.objectContaining({ id, name: 'Phone' })]);
    const empty = await ctx.app.inject({ method: 'PATCH', url: `/api/auth/passkeys/${id}`, headers: bearer(customer.token), payload: { name: ' ' } });
    expect(empty.statusCode).toBe(400);

    const other = await createCustomer(ctx);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${id}`, headers: bearer(other.token) })).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'PATCH', url: `/api/auth/passkeys/${id}`, headers: bearer(other.token), payload: { name: 'Mine' } })).statusCode,
    ).toBe(404);
    const stepUp = json(await post('/api/auth/step-up/passkey/options', {}, bearer(customer.token))).data;
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/auth/passkeys/${id}`,
      headers: bearer(customer.token),
      payload: { secondFactorPasskey: authenticator.assert(stepUp) },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(await get('/api/auth/passkeys', customer.token)).data).toEqual([]);
  });

  it('refuses a registration from another origin, or for a challenge the server did not issue to this user', async () => {
    const customer = await createCustomer(ctx);
    const authenticator = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
    const register = async (overrides: { origin?: string; challenge?: string }, token = customer.token) => {
      const options = json(await post('/api/auth/passkeys/register/options', {}, bearer(token))).data;
      return post('/api/auth/passkeys/register', { response: authenticator.register(options, overrides) }, bearer(customer.token));
    };
    expect((await register({ origin: 'https://bank.example.evil' })).statusCode).toBe(400);
    expect((await register({ challenge: foreignChallenge() })).statusCode).toBe(400);
    const other = await createCustomer(ctx);
    expect((await register({}, other.token)).statusCode).toBe(400);
    expect(json(await get('/api/auth/passkeys', customer.token)).data).toEqual([]);
  });

  it('signs in with the passkey alone (no ticket): a discoverable credential with user verification', async () => {
    const customer = await customerWithPasskey();
    const optionsResponse = await post('/api/auth/signin/passkey/options', {});
    expect(optionsResponse.statusCode).toBe(200);
    const options = json(optionsResponse).data;
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(options.rpId).toBe('localhost');

    const assertion = customer.authenticator.assert(options);
    const signedIn = await post('/api/auth/signin/passkey', { response: assertion });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(json(signedIn).data.user.email).toBe(customer.email);
    expect(signedIn.cookies.find((cookie) => cookie.name === 'll_session')?.value).toBe(json(signedIn).data.token);
    const [listed] = json(await get('/api/auth/passkeys', customer.token)).data;
    expect(listed.lastUsedAt).toEqual(expect.any(String));

    // The same assertion again: its challenge is spent.
    const replay = await post('/api/auth/signin/passkey', { response: assertion });
    expect(replay.statusCode).toBe(401);
    expect(json(replay).message).toBe(PASSKEY_REFUSED_MESSAGE);
    // A challenge the server never issued, another origin, no user verification, a counter that went back: refused.
    expect((await post('/api/auth/signin/passkey', { response: customer.authenticator.assert(options, { challenge: foreignChallenge() }) })).statusCode).toBe(
      401,
    );
    const fresh = async () => json(await post('/api/auth/signin/passkey/options', {})).data;
    expect(
      (await post('/api/auth/signin/passkey', { response: customer.authenticator.assert(await fresh(), { origin: 'https://phish.example' }) })).statusCode,
    ).toBe(401);
    const unverified = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin, { userVerified: false });
    unverified.credentials.push(...customer.authenticator.credentials);
    expect((await post('/api/auth/signin/passkey', { response: unverified.assert(await fresh()) })).statusCode).toBe(401);
    expect((await post('/api/auth/signin/passkey', { response: customer.authenticator.assert(await fresh(), { counter: 1 }) })).statusCode).toBe(401);
    // Not at the staff sign-in: a customer's passkey signs no one in to the back office.
    const staffOptions = json(await post('/api/auth/admin/signin/passkey/options', {})).data;
    expect((await post('/api/auth/admin/signin/passkey', { response: customer.authenticator.assert(staffOptions) })).statusCode).toBe(401);
    // Nor a challenge of the customer sign-in at the staff one.
    expect((await post('/api/auth/admin/signin/passkey', { response: customer.authenticator.assert(await fresh()) })).statusCode).toBe(401);
  });

  it('is the second step after the password (with the ticket), offering only the user’s passkeys', async () => {
    const customer = await customerWithPasskey();
    const { ticket, methods } = await passwordStep(customer.email, customer.password);
    expect(methods).toEqual(['passkey']);
    const options = json(await post('/api/auth/signin/passkey/options', { ticket })).data;
    expect(options.allowCredentials).toEqual([
      { id: customer.authenticator.credentials[0]!.id.toString('base64url'), type: 'public-key', transports: ['internal'] },
    ]);
    // Another customer's passkey answering this ticket's challenge: refused and counted.
    const other = await customerWithPasskey();
    const foreign = await post('/api/auth/signin/passkey', { ticket, response: other.authenticator.assert({ challenge: options.challenge }) });
    expect(foreign.statusCode).toBe(401);
    expect(json(foreign).message).toBe(`${PASSKEY_REFUSED_MESSAGE} 4 attempts left.`);
    const retry = json(await post('/api/auth/signin/passkey/options', { ticket })).data;
    const signedIn = await post('/api/auth/signin/passkey', { ticket, response: customer.authenticator.assert(retry) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(json(signedIn).data.user.email).toBe(customer.email);
    // A challenge issued without the ticket does not serve a ticket's step.
    const second = await passwordStep(customer.email, customer.password);
    const loose = json(await post('/api/auth/signin/passkey/options', {})).data;
    expect((await post('/api/auth/signin/passkey', { ticket: second.ticket, response: customer.authenticator.assert(loose) })).statusCode).toBe(401);
  });

  it('answers 4xx, never 5xx, to a malformed assertion', async () => {
    const options = json(await post('/api/auth/signin/passkey/options', {})).data;
    const junk = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' } };
    expect((await post('/api/auth/signin/passkey', { response: junk })).statusCode).toBe(401);
    const customer = await customerWithPasskey();
    const real = customer.authenticator.assert(options);
    const garbled = { ...real, response: { ...real.response, authenticatorData: 'AAAA' } };
    expect((await post('/api/auth/signin/passkey', { response: garbled })).statusCode).toBe(401);
    expect((await post('/api/auth/signin/passkey', { response: { ...real, type: 'other' } })).statusCode).toBe(400);
  });
});

describe('staff sign-in', () => {
  it('goes through the ticket and a code from the test secret', async () => {
    const { token, user } = await staffSignIn(ctx);
    expect(user).toMatchObject({ email: 'admin@example.com', isAdmin: true });
    expect((await get('/api/admin/dashboard', token)).statusCode).toBe(200);
    expect(json(await get('/api/auth/factors', token)).data).toEqual({ passkeys: 0, totp: true, recoveryCodesLeft: 0, enrolmentRequired: false });
  });

  it('cannot remove its last factor', async () => {
    const { token } = await staffSignIn(ctx);
    const removed = await ctx.app.inject({ method: 'DELETE', url: '/api/auth/totp', headers: bearer(token) });
    expect(removed.statusCode).toBe(409);
    expect(json(removed).message).toBe('Staff must keep a second factor: add another one before removing this one.');
    expect(json(await get('/api/auth/factors', token)).data.totp).toBe(true);
  });
});

describe('changing the password with a second factor', () => {
  const change = (token: string, body: Record<string, unknown>) => post('/api/auth/change-password', body, bearer(token));
  const passwordChangedMails = async (to: string) =>
    (await mailbox(ctx)).filter((mail) => mail.to === to && mail.subject.endsWith('your password was changed'));

  it('needs a fresh code from the app (once) or a recovery code (spent); a refused change writes nothing and other sessions end on success', async () => {
    const customer = await createCustomer(ctx);
    // A second session (another device), signed in before the app was set up.
    const other = json(await post('/api/auth/signin', { email: customer.email, password: customer.password })).data.token as string;
    const enrol = json(await post('/api/auth/totp/enrol', {}, bearer(customer.token))).data as { secret: string };
    const confirmedStep = step();
    const confirm = await post('/api/auth/totp/confirm', { code: code(enrol.secret, confirmedStep) }, bearer(customer.token));
    const recoveryCodes = json(confirm).data.recoveryCodes as string[];
    nextStep();

    // Without a factor, with a wrong code, with malformed ones: 400, and the old password still holds.
    const missing = await change(customer.token, { oldPassword: customer.password, newPassword: 'Copper-Meadow-Lantern-41' });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ message: FRESH_FACTOR_REQUIRED_MESSAGE, fields: { secondFactorCode: FRESH_FACTOR_REQUIRED_MESSAGE } });
    const wrongCode = String((Number(code(enrol.secret, step())) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await change(customer.token, { oldPassword: customer.password, newPassword: 'Copper-Meadow-Lantern-41', secondFactorCode: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toBe(FRESH_FACTOR_REFUSED_MESSAGE);
    for (const malformed of ['12345', 'abc', '<script>', 'x'.repeat(50)]) {
      const refused = await change(customer.token, { oldPassword: customer.password, newPassword: 'Copper-Meadow-Lantern-41', secondFactorCode: malformed });
      expect(refused.statusCode, malformed).toBe(400);
    }
    // The code the confirmation used is spent.
    const spent = await change(customer.token, {
      oldPassword: customer.password,
      newPassword: 'Copper-Meadow-Lantern-41',
      secondFactorCode: code(enrol.secret, confirmedStep),
    });
    expect(spent.statusCode).toBe(400);
    expect((await passwordStep(customer.email, customer.password)).ticket).toEqual(expect.any(String));
    expect(await passwordChangedMails(customer.email)).toEqual([]);
    expect((await get('/api/auth/user', other)).statusCode).toBe(200);

    // The right code: changed, this session stays, the other ends, the owner is emailed.
    const fresh = code(enrol.secret, step());
    const changed = await change(customer.token, { oldPassword: customer.password, newPassword: 'Copper-Meadow-Lantern-41', secondFactorCode: fresh });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json(changed)).toEqual({ data: null, message: 'Password updated successfully' });
    expect((await get('/api/auth/user', customer.token)).statusCode).toBe(200);
    expect((await get('/api/auth/user', other)).statusCode).toBe(401);
    expect(await passwordChangedMails(customer.email)).toHaveLength(1);
    expect((await post('/api/auth/signin', { email: customer.email, password: customer.password })).statusCode).toBe(401);

    // The same code again (someone who saw it): refused. A recovery code works, once.
    const replay = await change(customer.token, { oldPassword: 'Copper-Meadow-Lantern-41', newPassword: 'Harbor-Quill-Juniper-58', secondFactorCode: fresh });
    expect(replay.statusCode).toBe(400);
    expect(json(replay).message).toBe(FRESH_FACTOR_REFUSED_MESSAGE);
    const byRecovery = await change(customer.token, {
      oldPassword: 'Copper-Meadow-Lantern-41',
      newPassword: 'Harbor-Quill-Juniper-58',
      secondFactorCode: recoveryCodes[0]!.toUpperCase(),
    });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    expect(json(await get('/api/auth/factors', customer.token)).data.recoveryCodesLeft).toBe(9);
    const recoveryAgain = await change(customer.token, {
      oldPassword: 'Harbor-Quill-Juniper-58',
      newPassword: 'Velvet-Orchard-Signal-93',
      secondFactorCode: recoveryCodes[0],
    });
    expect(recoveryAgain.statusCode).toBe(400);
    expect(await passwordChangedMails(customer.email)).toHaveLength(2);
  });

  it('takes a passkey answering a step-up challenge issued to this user, once', async () => {
    const customer = await createCustomer(ctx);
    const authenticator = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
    const registration = json(await post('/api/auth/passkeys/register/options', {}, bearer(customer.token))).data;
    expect((await post('/api/auth/passkeys/register', { response: authenticator.register(registration) }, bearer(customer.token))).statusCode).toBe(201);

    const optionsResponse = await post('/api/auth/step-up/passkey/options', {}, bearer(customer.token));
    expect(optionsResponse.statusCode).toBe(200);
    const options = json(optionsResponse).data;
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: authenticator.credentials[0]!.id.toString('base64url') })]);
    // Not without a session, and not for a customer without a passkey.
    expect((await post('/api/auth/step-up/passkey/options', {})).statusCode).toBe(401);
    const plain = await createCustomer(ctx);
    expect((await post('/api/auth/step-up/passkey/options', {}, bearer(plain.token))).statusCode).toBe(400);

    // A sign-in challenge is not a step-up one; another origin is refused.
    const signInOptions = json(await post('/api/auth/signin/passkey/options', {})).data;
    const body = { oldPassword: customer.password, newPassword: 'Copper-Meadow-Lantern-41' };
    expect((await change(customer.token, { ...body, secondFactorPasskey: authenticator.assert(signInOptions) })).statusCode).toBe(400);
    const phished = json(await post('/api/auth/step-up/passkey/options', {}, bearer(customer.token))).data;
    expect(
      (await change(customer.token, { ...body, secondFactorPasskey: authenticator.assert(phished, { origin: 'https://phish.example' }) })).statusCode,
    ).toBe(400);
    // Another customer with a passkey of their own cannot answer this customer's step-up challenge.
    const rival = await createCustomer(ctx);
    const rivalKey = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
    const rivalRegistration = json(await post('/api/auth/passkeys/register/options', {}, bearer(rival.token))).data;
    expect((await post('/api/auth/passkeys/register', { response: rivalKey.register(rivalRegistration) }, bearer(rival.token))).statusCode).toBe(201);
    const stolen = await change(rival.token, {
      oldPassword: rival.password,
      newPassword: 'Copper-Meadow-Lantern-41',
      secondFactorPasskey: rivalKey.assert(options, { credential: rivalKey.credentials[0]! }),
    });
    expect(stolen.statusCode).toBe(400);
    expect(json(stolen).message).toBe(FRESH_FACTOR_REFUSED_MESSAGE);
    // Refused changes wrote nothing: the old password still leads to the second step.
    expect((await passwordStep(customer.email, customer.password)).methods).toEqual(['passkey']);

    const assertion = authenticator.assert(json(await post('/api/auth/step-up/passkey/options', {}, bearer(customer.token))).data);
    const changed = await change(customer.token, { ...body, secondFactorPasskey: assertion });
    expect(changed.statusCode, changed.body).toBe(200);
    const replay = await change(customer.token, {
      oldPassword: 'Copper-Meadow-Lantern-41',
      newPassword: 'Harbor-Quill-Juniper-58',
      secondFactorPasskey: assertion,
    });
    expect(replay.statusCode).toBe(400);
    expect(json(replay).message).toBe(FRESH_FACTOR_REFUSED_MESSAGE);
  });

  it('still takes old and new password alone for an account without a factor', async () => {
    const customer = await createCustomer(ctx);
    const changed = await change(customer.token, { oldPassword: customer.password, newPassword: 'Copper-Meadow-Lantern-41' });
    expect(changed.statusCode, changed.body).toBe(200);
  });
});
