import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approvalChallenge, paymentBinding } from '../../src/server/payment-approval/binding';
import {
  APPROVAL_BOTH_MESSAGE,
  PASSKEY_APPROVAL_EXPIRED_MESSAGE,
  PASSKEY_APPROVAL_MISMATCH_MESSAGE,
  PASSKEY_APPROVAL_MISSING_MESSAGE,
  PASSKEY_APPROVAL_REFUSED_MESSAGE,
  PASSKEY_APPROVAL_USED_MESSAGE,
} from '../../src/shared/contracts/payment-approval';
import { WEBAUTHN_CHALLENGE_TTL_MS } from '../../src/shared/contracts/factors';
import { addDays, todayIso } from '../../src/shared/dates';
import { bearer, createCustomer, createTestApp, json, lastCode, mailbox, type TestContext, fund } from '../support/app';
import { foreignChallenge, SoftAuthenticator } from '../support/webauthn';

// Transfer approval with a passkey and dynamic linking (issue 13; mandates and batches, issue 14;
// ADR 024). A software authenticator signs for real: the server's WebAuthn checks run against real
// ES256 signatures over the challenge the first call handed out. The apps run on a clock the tests
// move, so a challenge's 5 minutes are exact; the caps are counted by the test that is about them
// (an app of its own with RATE_LIMITS on, as they are in production).

let ctx: TestContext;
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
beforeAll(async () => {
  ctx = await createTestApp({ clock });
});
afterAll(async () => ctx?.close());
beforeEach(() => {
  clock.offsetMs = 0;
});

let keySeq = 0;
const key = () => `approval-${Date.now()}-${keySeq++}`;
// Each call from its own address: the per-address limits are not what these tests are about.
const address = () => `10.${keySeq % 250}.${Math.floor(keySeq / 250) % 250}.9`;
const post = (token: string, url: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url, remoteAddress: address(), headers: { ...bearer(token), 'idempotency-key': key() }, payload });

const balances = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;
const entriesOf = async (userId: string) =>
  Number(
    (
      await ctx.database.pool.query(`select count(*) from postings p join ledger_accounts a on a.id = p.account_id where a.owner_id = $1 and p.amount < 0`, [
        userId,
      ])
    ).rows[0].count,
  );
const mailsTo = async (email: string) => (await mailbox(ctx)).filter((mail) => mail.to === email).length;

/** A funded customer with a passkey on a software authenticator. */
async function customerWithPasskey(dollars = 1000) {
  const customer = await createCustomer(ctx);
  await fund(ctx, customer.userId, dollars);
  const authenticator = new SoftAuthenticator(new URL(ctx.config.publicUrl).origin);
  const options = json(await post(customer.token, '/api/auth/passkeys/register/options', {})).data;
  const registered = await post(customer.token, '/api/auth/passkeys/register', { name: 'Phone', response: authenticator.register(options) });
  expect(registered.statusCode, registered.body).toBe(201);
  return { ...customer, authenticator };
}

type Customer = Awaited<ReturnType<typeof customerWithPasskey>>;

/** The first call: the passkey step, with the options the browser would pass to the authenticator. */
async function passkeyStep(customer: Customer, url: string, body: Record<string, unknown>) {
  const first = await post(customer.token, url, body);
  expect(first.statusCode, first.body).toBe(200);
  const step = json(first).data;
  expect(step.step).toBe('passkey');
  return step as { options: { challenge: string; allowCredentials: Array<{ id: string }>; userVerification: string }; [key: string]: unknown };
}

describe('a transfer approved with a passkey', () => {
  it('answers a challenge derived from the transfer (nothing mailed), and posts exactly that transfer', async () => {
    const sender = await customerWithPasskey();
    const payee = await createCustomer(ctx);
    const mailsBefore = await mailsTo(sender.email);
    const body = { amount: 120.25, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person', description: 'rent' };
    const step = await passkeyStep(sender, '/api/transaction/transfer', body);
    expect(step).toMatchObject({
      amount: 120.25,
      currency: 'USD',
      payee: `Payee Person (account ending ${payee.accountNumber.slice(-4)})`,
      description: 'rent',
      expiresAt: expect.any(String),
      // Confirmation of payee on the passkey's step too: "Payee Person" is not the holder's name.
      payeeCheck: { result: 'no_match' },
    });
    expect(step.options.userVerification).toBe('required');
    expect(step.options.allowCredentials.map((credential) => credential.id)).toEqual([
      Buffer.from(sender.authenticator.credentials[0]!.id).toString('base64url'),
    ]);
    expect(await mailsTo(sender.email)).toBe(mailsBefore);

    // The challenge is SHA-256 over the stored nonce and this transfer's canonical encoding.
    const stored = await ctx.database.db.selectFrom('payment_approvals').selectAll().where('challenge', '=', step.options.challenge).executeTakeFirstOrThrow();
    const from = await ctx.database.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('owner_id', '=', sender.userId)
      .where('kind', '=', 'checking')
      .executeTakeFirstOrThrow();
    const binding = paymentBinding({
      kind: 'transfer',
      fromAccountId: from.id,
      amountCents: 12025,
      payee: { accountNumber: payee.accountNumber, routingNumber: null, bankName: null, to: 'Payee Person' },
      description: 'rent',
    });
    expect(stored).toMatchObject({ user_id: sender.userId, kind: 'transfer', binding, used_at: null });
    expect(step.options.challenge).toBe(approvalChallenge(binding, stored.nonce));

    const done = await post(sender.token, '/api/transaction/transfer', { ...body, passkeyAssertion: sender.authenticator.assert(step.options) });
    expect(done.statusCode, done.body).toBe(201);
    expect(json(done)).toMatchObject({ message: 'Transfer Successful', data: { amount: 120.25, description: 'rent', transactionType: 'debit' } });
    expect((await balances(sender.token)).checking).toBe(879.75);
    expect((await balances(payee.token)).checking).toBe(120.25);
  });

  it('does not post another transfer: a changed amount, payee or description is refused, nothing posted, the approval spent', async () => {
    const sender = await customerWithPasskey();
    const payee = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const body = { amount: 100, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person', description: 'rent' };
    const changes = [{ amount: 1000 }, { accountNumber: other.accountNumber }, { to: 'Mallory' }, { description: 'groceries' }, { description: undefined }];
    for (const change of changes) {
      const step = await passkeyStep(sender, '/api/transaction/transfer', body);
      const assertion = sender.authenticator.assert(step.options);
      const changed = await post(sender.token, '/api/transaction/transfer', { ...body, ...change, passkeyAssertion: assertion });
      expect(changed.statusCode, JSON.stringify(change)).toBe(400);
      expect(json(changed)).toMatchObject({ message: PASSKEY_APPROVAL_MISMATCH_MESSAGE, fields: { passkeyAssertion: PASSKEY_APPROVAL_MISMATCH_MESSAGE } });
      // Used once: the same assertion no longer posts even the transfer it was given for.
      const original = await post(sender.token, '/api/transaction/transfer', { ...body, passkeyAssertion: assertion });
      expect(original.statusCode).toBe(400);
      expect(json(original).message).toBe(PASSKEY_APPROVAL_USED_MESSAGE);
    }
    expect(await entriesOf(sender.userId)).toBe(0);
    expect((await balances(sender.token)).checking).toBe(1000);
    expect((await balances(other.token)).checking).toBe(0);
    // Each refusal counted as a failed approval, as a wrong code is.
    const attempts = await ctx.database.db.selectFrom('payment_approvals').select('attempts').where('user_id', '=', sender.userId).execute();
    expect(attempts.map((row) => row.attempts)).toEqual(changes.map(() => 1));
  });

  it('refuses a replay of a used approval, an expired one, one never issued, another site, and both approvals at once', async () => {
    const sender = await customerWithPasskey();
    const payee = await createCustomer(ctx);
    const body = { amount: 10, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person' };

    const step = await passkeyStep(sender, '/api/transaction/transfer', body);
    const assertion = sender.authenticator.assert(step.options);
    expect((await post(sender.token, '/api/transaction/transfer', { ...body, passkeyAssertion: assertion })).statusCode).toBe(201);
    const replay = await post(sender.token, '/api/transaction/transfer', { ...body, passkeyAssertion: assertion });
    expect(replay.statusCode).toBe(400);
    expect(json(replay).message).toBe(PASSKEY_APPROVAL_USED_MESSAGE);
    expect(await entriesOf(sender.userId)).toBe(1);

    const late = await passkeyStep(sender, '/api/transaction/transfer', body);
    clock.offsetMs += WEBAUTHN_CHALLENGE_TTL_MS + 1000;
    const expired = await post(sender.token, '/api/transaction/transfer', { ...body, passkeyAssertion: sender.authenticator.assert(late.options) });
    expect(expired.statusCode).toBe(400);
    expect(json(expired).message).toBe(PASSKEY_APPROVAL_EXPIRED_MESSAGE);

    const forged = await post(sender.token, '/api/transaction/transfer', {
      ...body,
      passkeyAssertion: sender.authenticator.assert(late.options, { challenge: foreignChallenge() }),
    });
    expect(forged.statusCode).toBe(400);
    expect(json(forged).message).toBe(PASSKEY_APPROVAL_MISSING_MESSAGE);

    const fresh = await passkeyStep(sender, '/api/transaction/transfer', body);
    const phished = await post(sender.token, '/api/transaction/transfer', {
      ...body,
      passkeyAssertion: sender.authenticator.assert(fresh.options, { origin: 'https://phish.example' }),
    });
    expect(phished.statusCode).toBe(400);
    expect(json(phished).message).toBe(PASSKEY_APPROVAL_REFUSED_MESSAGE);

    // Another customer's passkey cannot answer this customer's challenge.
    const stranger = await customerWithPasskey();
    const theirs = await passkeyStep(sender, '/api/transaction/transfer', body);
    const foreign = await post(sender.token, '/api/transaction/transfer', {
      ...body,
      passkeyAssertion: stranger.authenticator.assert({ ...theirs.options, allowCredentials: undefined }),
    });
    expect(foreign.statusCode).toBe(400);
    expect(json(foreign).message).toBe(PASSKEY_APPROVAL_REFUSED_MESSAGE);

    const both = await post(sender.token, '/api/transaction/transfer', { ...body, paymentPin: '123456', passkeyAssertion: assertion });
    expect(both.statusCode).toBe(400);
    expect(json(both).message).toBe(APPROVAL_BOTH_MESSAGE);
    expect(await entriesOf(sender.userId)).toBe(1);
  });

  it('falls back to the emailed code on request ("approval": "code"), bound to the same transfer', async () => {
    const sender = await customerWithPasskey();
    const payee = await createCustomer(ctx);
    const body = { amount: 15, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person', description: 'lunch' };
    const first = await post(sender.token, '/api/transaction/transfer', { ...body, approval: 'code' });
    expect(first.statusCode).toBe(200);
    expect(json(first).data).toMatchObject({ step: 'code', amount: 15 });
    const code = await lastCode(ctx, sender.email);
    const otherMemo = await post(sender.token, '/api/transaction/transfer', { ...body, description: 'dinner', paymentPin: code });
    expect(otherMemo.statusCode).toBe(400);
    const done = await post(sender.token, '/api/transaction/transfer', { ...body, paymentPin: code });
    expect(done.statusCode, done.body).toBe(201);
    expect(await entriesOf(sender.userId)).toBe(1);
  });

  it('counts towards the caps of codes: approvals an hour, and refused passkey answers a day (then payments are held)', async () => {
    const sender = await customerWithPasskey();
    const guesser = await customerWithPasskey();
    const payee = await createCustomer(ctx);
    const unlimited = ctx;
    // The same database under an app that counts the caps: 5 approvals an hour (the default), and
    // 3 failures a day (TRANSFER_CODE_FAILURES_PER_DAY, lowered so the hold comes within the hour's cap).
    ctx = await createTestApp({ clock, rateLimits: true, databaseUrl: unlimited.databaseUrl, seedDemo: false, env: { TRANSFER_CODE_FAILURES_PER_DAY: '3' } });
    try {
      const body = { amount: 5, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person' };
      // Two emailed codes and three passkey challenges make five approvals in the hour...
      for (let index = 0; index < 2; index += 1)
        expect((await post(sender.token, '/api/transaction/transfer', { ...body, approval: 'code' })).statusCode).toBe(200);
      for (let index = 0; index < 3; index += 1) await passkeyStep(sender, '/api/transaction/transfer', body);
      // ...and the sixth, of either kind, is a 429 with Retry-After.
      for (const approval of [undefined, 'code']) {
        const capped = await post(sender.token, '/api/transaction/transfer', { ...body, approval });
        expect(capped.statusCode).toBe(429);
        expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
        expect(json(capped).message).toMatch(/in the last hour/);
      }

      // Refused passkey answers count as wrong codes do: the third of the day holds outgoing payments.
      const wire = {
        amount: 40,
        account: 'checking',
        beneficiaryName: 'Hans Muster',
        beneficiaryAccount: 'DE89370400440532013000',
        bankName: 'Commerzbank',
        country: 'DE',
        swiftCode: 'COBADEFFXXX',
        accountType: 'CURRENT',
      };
      for (let index = 0; index < 3; index += 1) {
        const step = await passkeyStep(guesser, '/api/transaction/wire-transfer', wire);
        const refused = await post(guesser.token, '/api/transaction/wire-transfer', {
          ...wire,
          amount: 400,
          passkeyAssertion: guesser.authenticator.assert(step.options),
        });
        if (index < 2) expect(json(refused)).toMatchObject({ message: PASSKEY_APPROVAL_MISMATCH_MESSAGE });
        else {
          expect(refused.statusCode).toBe(429);
          expect(json(refused).message).toMatch(/outgoing payments are on hold/);
        }
      }
      const held = await post(guesser.token, '/api/transaction/transfer', { ...body });
      expect(held.statusCode).toBe(429);
      expect(json(held).message).toMatch(/on hold/);
      expect(await entriesOf(sender.userId)).toBe(0);
      expect(await entriesOf(guesser.userId)).toBe(0);
    } finally {
      await ctx.close();
      ctx = unlimited;
    }
  });
});

describe('every kind of payment approves with a passkey the same way', () => {
  it('a wire: posted with the passkey; another beneficiary account is refused', async () => {
    const sender = await customerWithPasskey();
    const wire = {
      amount: 40,
      account: 'checking',
      beneficiaryName: 'Hans Muster',
      beneficiaryAccount: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
      swiftCode: 'COBADEFFXXX',
      accountType: 'CURRENT',
      description: 'Invoice 42',
    };
    const step = await passkeyStep(sender, '/api/transaction/wire-transfer', wire);
    expect(step).toMatchObject({ amount: 40, description: 'Invoice 42', payee: 'Hans Muster (Commerzbank, Germany, account ending 3000)' });
    const changed = await post(sender.token, '/api/transaction/wire-transfer', {
      ...wire,
      beneficiaryAccount: 'DE02120300000000202051',
      passkeyAssertion: sender.authenticator.assert(step.options),
    });
    expect(changed.statusCode).toBe(400);
    expect(json(changed).message).toBe(PASSKEY_APPROVAL_MISMATCH_MESSAGE);
    const again = await passkeyStep(sender, '/api/transaction/wire-transfer', wire);
    const done = await post(sender.token, '/api/transaction/wire-transfer', { ...wire, passkeyAssertion: sender.authenticator.assert(again.options) });
    expect(done.statusCode, done.body).toBe(201);
    expect((await balances(sender.token)).checking).toBe(960);
  });

  it('paying a request: the approval is bound to the account paying it', async () => {
    const payer = await customerWithPasskey();
    const requester = await createCustomer(ctx);
    const created = await post(requester.token, '/api/payment-requests', { to: payer.email, amount: 30, note: 'Concert tickets' });
    expect(created.statusCode, created.body).toBe(201);
    const id = json(created).data.id as string;
    await fund(ctx, payer.userId, 0.01); // a savings-less payer: fund checking only
    const url = `/api/payment-requests/${id}/pay`;
    const step = await passkeyStep(payer, url, { from: 'checking' });
    expect(step).toMatchObject({ amount: 30, description: 'Concert tickets' });
    // Approved from checking; posted from savings would be another payment.
    const otherAccount = await post(payer.token, url, { from: 'savings', passkeyAssertion: payer.authenticator.assert(step.options) });
    expect(otherAccount.statusCode).toBe(400);
    const again = await passkeyStep(payer, url, { from: 'checking' });
    const paid = await post(payer.token, url, { from: 'checking', passkeyAssertion: payer.authenticator.assert(again.options) });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(json(paid).data.request.status).toBe('paid');
    expect((await balances(requester.token)).checking).toBe(30);
  });

  it('a standing order mandate: bound to its payee, amount, description and schedule', async () => {
    const payer = await customerWithPasskey();
    const payee = await createCustomer(ctx);
    const body = {
      from: 'checking',
      to: { kind: 'customer', accountNumber: payee.accountNumber },
      amount: 25,
      description: 'Rent share',
      frequency: 'monthly',
      startDate: addDays(todayIso(), 3),
      count: 6,
    };
    for (const change of [{ amount: 26 }, { count: 60 }]) {
      const step = await passkeyStep(payer, '/api/standing-orders', body);
      const refused = await post(payer.token, '/api/standing-orders', { ...body, ...change, passkeyAssertion: payer.authenticator.assert(step.options) });
      expect(refused.statusCode).toBe(400);
      expect(json(refused).message).toBe(PASSKEY_APPROVAL_MISMATCH_MESSAGE);
    }
    const step = await passkeyStep(payer, '/api/standing-orders', body);
    const created = await post(payer.token, '/api/standing-orders', { ...body, passkeyAssertion: payer.authenticator.assert(step.options) });
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created).data).toMatchObject({ amount: 25, count: 6, status: 'active' });
    const listed = json(await ctx.app.inject({ method: 'GET', url: '/api/standing-orders', headers: bearer(payer.token) })).data;
    expect(listed).toHaveLength(1);
  });

  it('a bulk batch: bound to its rows; a batch with one row changed is refused and nothing is posted', async () => {
    const payer = await customerWithPasskey();
    const [first, second] = [await createCustomer(ctx), await createCustomer(ctx)];
    const payments = [
      { accountNumber: first!.accountNumber, amount: 10, name: 'First', description: 'Salary' },
      { accountNumber: second!.accountNumber, amount: 20, name: 'Second', description: 'Salary' },
    ];
    const step = await passkeyStep(payer, '/api/transaction/bulk', { from: 'checking', payments });
    expect(step).toMatchObject({ amount: 30, payee: '2 payments' });
    const swapped = [payments[0]!, { ...payments[1]!, amount: 19, description: 'Salary' }, { ...payments[0]!, amount: 1 }];
    const refused = await post(payer.token, '/api/transaction/bulk', {
      from: 'checking',
      payments: swapped,
      passkeyAssertion: payer.authenticator.assert(step.options),
    });
    expect(refused.statusCode).toBe(400);
    expect(json(refused).message).toBe(PASSKEY_APPROVAL_MISMATCH_MESSAGE);
    expect(await entriesOf(payer.userId)).toBe(0);
    const again = await passkeyStep(payer, '/api/transaction/bulk', { from: 'checking', payments });
    const paid = await post(payer.token, '/api/transaction/bulk', { from: 'checking', payments, passkeyAssertion: payer.authenticator.assert(again.options) });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(json(paid).data).toMatchObject({ count: 2, total: 30 });
    expect(await entriesOf(payer.userId)).toBe(2);
  });
});
