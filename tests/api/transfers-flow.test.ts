import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../src/server/ledger/verify';
import { bearer, createCustomer, json, lastCode, type TestContext, createTestApp, mailbox, fund } from '../support/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

let keySeq = 0;
const key = () => `flow-${Date.now()}-${keySeq++}`;

const post = (token: string, url: string, payload: Record<string, unknown>, idempotencyKey = key()) =>
  ctx.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'idempotency-key': idempotencyKey }, payload });

const balances = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;

describe('transfer to another customer with the emailed IMS code', () => {
  it('validates, emails a code bound to the transfer, and posts only with that code', async () => {
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, sender.userId, 500, { account: 'savings' });
    const base = {
      from: sender.accountNumber,
      amount: 120.25,
      accountType: 'savings',
      accountNumber: payee.accountNumber,
      to: 'Payee Person',
      description: 'Rent share',
    };

    // Step 1: validation messages from the spec.
    const missing = await post(sender.token, '/api/transaction/transfer', { accountType: 'savings' });
    expect(missing.statusCode).toBe(400);
    expect(json(missing).message).toBe('Please fill all fields');
    const zero = await post(sender.token, '/api/transaction/transfer', { ...base, amount: 0 });
    expect(json(zero).message).toBe('Amount must be greater than 0');
    const tooMuch = await post(sender.token, '/api/transaction/transfer', { ...base, amount: 500.01 });
    expect(tooMuch.statusCode).toBe(400);
    expect(json(tooMuch).message).toBe('Insufficient funds');
    const self = await post(sender.token, '/api/transaction/transfer', { ...base, accountNumber: sender.accountNumber });
    expect(json(self).message).toBe('You cannot transfer to the same account');
    const notMine = await post(sender.token, '/api/transaction/transfer', { ...base, from: payee.accountNumber });
    expect(notMine.statusCode).toBe(403);
    const emptyPin = await post(sender.token, '/api/transaction/transfer', { ...base, paymentPin: '' });
    expect(json(emptyPin).message).toBe('Please enter IMS code');
    const longText = await post(sender.token, '/api/transaction/transfer', { ...base, to: 'x'.repeat(500) });
    expect(longText.statusCode).toBe(400);

    // Step 1 proper: code mailed, nothing posted.
    const step1 = await post(sender.token, '/api/transaction/transfer', base);
    expect(step1.statusCode).toBe(200);
    expect(json(step1).data).toMatchObject({ step: 'code', amount: 120.25 });
    expect(json(step1).message).toMatch(/free/);
    const code = await lastCode(ctx, sender.email);
    expect((await mailbox(ctx))[0]?.text).toMatch(/only this transfer/);
    expect((await balances(sender.token)).savings).toBe(500);

    // The code never authorizes another amount or payee (and does not use up the real code's attempts).
    const otherAmount = await post(sender.token, '/api/transaction/transfer', { ...base, amount: 130, paymentPin: code });
    expect(otherAmount.statusCode).toBe(400);
    expect(json(otherAmount).message).toMatch(/No IMS code is waiting/);
    const otherPayee = await post(sender.token, '/api/transaction/transfer', { ...base, to: 'Someone Else', paymentPin: code });
    expect(otherPayee.statusCode).toBe(400);
    const wrong = await post(sender.token, '/api/transaction/transfer', { ...base, paymentPin: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toMatch(/not correct. 4 attempts left/);
    expect((await balances(sender.token)).savings).toBe(500);

    const done = await post(sender.token, '/api/transaction/transfer', { ...base, paymentPin: code });
    expect(done.statusCode).toBe(201);
    expect(json(done).message).toBe('Transfer Successful');
    expect(json(done).data).toMatchObject({
      amount: 120.25,
      transactionType: 'debit',
      account: 'savings',
      kind: 'transfer',
      counterparty: 'Payee Person',
      description: 'Rent share',
    });
    expect((await balances(sender.token)).savings).toBe(379.75);
    expect((await balances(payee.token)).checking).toBe(120.25);
    const payeeLines = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(payee.token) })).data.items;
    expect(payeeLines[0]).toMatchObject({ transactionType: 'credit', account: 'checking', kind: 'transfer', amount: 120.25 });
    expect(payeeLines[0].description).toMatch(/^Transfer from /);

    // The code works once.
    const again = await post(sender.token, '/api/transaction/transfer', { ...base, paymentPin: code });
    expect(again.statusCode).toBe(400);
    expect((await balances(sender.token)).savings).toBe(379.75);
  });

  it('tells on the approval step how the recipient name compares with the account holder, and records it with the payment', async () => {
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx, { firstName: 'Siobhán', lastName: "O'Neill" });
    await fund(ctx, sender.userId, 100);
    const step = async (to: string, accountNumber = payee.accountNumber, extra: Record<string, unknown> = {}) => {
      const answer = await post(sender.token, '/api/transaction/transfer', { amount: 5, accountType: 'checking', accountNumber, to, ...extra });
      expect(answer.statusCode, answer.body).toBe(200);
      return json(answer).data.payeeCheck;
    };
    // An account at another bank: the bank cannot see its holder.
    expect(await step('Jordan Smith', '987654321', { routingNumber: '021000021', bankName: 'Other Bank' })).toEqual({ result: 'unavailable' });
    // The same name however it is typed: a match, and the holder's name is not repeated back.
    expect(await step('siobhan oneill')).toEqual({ result: 'match' });
    // A slip: a close match that names the holder, so the customer can correct it.
    expect(await step('Siobhan ONeil')).toEqual({ result: 'close_match', accountName: "Siobhán O'Neill" });
    expect(await step('S. O’Neill')).toEqual({ result: 'close_match', accountName: "Siobhán O'Neill" });
    // Someone else: no match, and nothing of who holds the account.
    expect(await step('Jordan Smith')).toEqual({ result: 'no_match' });

    // The customer may still pay after a warning (the code approves what they saw); the payment keeps what they were told.
    const done = await post(sender.token, '/api/transaction/transfer', {
      amount: 5,
      accountType: 'checking',
      accountNumber: payee.accountNumber,
      to: 'Jordan Smith',
      paymentPin: await lastCode(ctx, sender.email),
    });
    expect(done.statusCode, done.body).toBe(201);
    const entry = await ctx.database.db.selectFrom('journal_entries').selectAll().where('id', '=', json(done).data.entryId).executeTakeFirstOrThrow();
    expect(entry.details).toMatchObject({ payee: { to: 'Jordan Smith', internal: true, nameCheck: 'no_match' } });
  });

  it('spends a code after 5 wrong attempts', async () => {
    const sender = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, sender.userId, 50);
    const base = { amount: 10, accountType: 'checking', accountNumber: payee.accountNumber, to: 'P' };
    await post(sender.token, '/api/transaction/transfer', base);
    const code = await lastCode(ctx, sender.email);
    const wrongCode = code === '123456' ? '654321' : '123456';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await post(sender.token, '/api/transaction/transfer', { ...base, paymentPin: wrongCode });
      expect(response.statusCode).toBe(400);
    }
    const right = await post(sender.token, '/api/transaction/transfer', { ...base, paymentPin: code });
    expect(right.statusCode).toBe(400);
    expect((await balances(sender.token)).checking).toBe(50);
  });

  it('sends to another bank through external clearing with the beneficiary stored', async () => {
    const sender = await createCustomer(ctx);
    await fund(ctx, sender.userId, 300);
    const base = { amount: 75, accountType: 'checking', accountNumber: '987654321', to: 'Outside Payee' };
    const noRouting = await post(sender.token, '/api/transaction/transfer', base);
    expect(noRouting.statusCode).toBe(400);
    expect(json(noRouting).message).toBe('This account is at another bank: please enter its routing number and bank name.');
    expect(json(noRouting).fields).toMatchObject({ routingNumber: 'Routing number is required for another bank' });
    const badRouting = await post(sender.token, '/api/transaction/transfer', { ...base, routingNumber: '123456789', bankName: 'Other Bank' });
    expect(json(badRouting).message).toMatch(/Routing number/);
    const full = { ...base, routingNumber: '021000021', bankName: 'Other Bank' };
    expect((await post(sender.token, '/api/transaction/transfer', full)).statusCode).toBe(200);
    const done = await post(sender.token, '/api/transaction/transfer', { ...full, paymentPin: await lastCode(ctx, sender.email) });
    expect(done.statusCode).toBe(201);
    const entry = await ctx.database.db.selectFrom('journal_entries').selectAll().where('id', '=', json(done).data.entryId).executeTakeFirstOrThrow();
    expect(entry.details).toMatchObject({
      beneficiary: { name: 'Outside Payee', accountNumber: '987654321', routingNumber: '021000021', bankName: 'Other Bank' },
    });
    const clearing = await ctx.database.db
      .selectFrom('postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['a.kind', 'p.amount'])
      .where('p.entry_id', '=', entry.id)
      .where('a.owner_id', 'is', null)
      .executeTakeFirstOrThrow();
    expect(clearing).toEqual({ kind: 'external_clearing', amount: 7500 });
  });

  it('wires abroad with SWIFT/BIC checks and the same code step', async () => {
    const sender = await createCustomer(ctx);
    await fund(ctx, sender.userId, 1000);
    const base = {
      amount: 250,
      account: 'checking',
      beneficiaryName: 'Hans Muster',
      beneficiaryAccount: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
      swiftCode: 'COBADEFFXXX',
      accountType: 'CURRENT',
      description: 'Invoice 42',
    };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ swiftCode: 'COBA' }, /SWIFT\/BIC/],
      [{ swiftCode: 'COBAZZFF' }, /SWIFT\/BIC/],
      [{ country: 'XX' }, /country/],
      [{ country: 'FR' }, /another country/],
      [{ accountType: 'GOLD' }, /account type/],
      [{ beneficiaryAccount: 'DE00370400440532013000' }, /IBAN/],
      [{ beneficiaryAccount: sender.accountNumber }, /You cannot transfer to the same account/],
      [{ amount: -1 }, /Amount must be greater than 0/],
      [{ beneficiaryName: '' }, /Please fill all fields/],
      [{ amount: 5000 }, /Insufficient funds/],
    ];
    for (const [change, message] of cases) {
      const response = await post(sender.token, '/api/transaction/wire-transfer', { ...base, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(json(response).message).toMatch(message);
    }
    const step = await post(sender.token, '/api/transaction/wire-transfer', base);
    expect(step.statusCode).toBe(200);
    // A bank abroad: its account holder's name cannot be checked here, and the step says so.
    expect(json(step).data.payeeCheck).toEqual({ result: 'unavailable' });
    const code = await lastCode(ctx, sender.email);
    const otherBank = await post(sender.token, '/api/transaction/wire-transfer', { ...base, swiftCode: 'DEUTDEFF', paymentPin: code });
    expect(otherBank.statusCode).toBe(400);
    const done = await post(sender.token, '/api/transaction/wire-transfer', { ...base, paymentPin: code });
    expect(done.statusCode).toBe(201);
    expect(json(done).data).toMatchObject({ kind: 'wire', amount: 250, transactionType: 'debit', account: 'checking', counterparty: 'Hans Muster' });
    expect((await balances(sender.token)).checking).toBe(750);
  });

  it('stops a blocked customer from sending money out, but lets them receive and move between own accounts', async () => {
    const blocked = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    await fund(ctx, blocked.userId, 100);
    await ctx.database.db.updateTable('users').set({ is_blocked: true }).where('id', '=', blocked.userId).execute();
    for (const [url, payload] of [
      ['/api/transaction/transfer', { amount: 10, accountType: 'checking', accountNumber: other.accountNumber, to: 'X' }],
      [
        '/api/transaction/wire-transfer',
        { amount: 10, beneficiaryName: 'X', beneficiaryAccount: '12345678', bankName: 'B', country: 'US', swiftCode: 'CHASUS33', accountType: 'CHECKING' },
      ],
    ] as const) {
      const response = await post(blocked.token, url, payload);
      expect(response.statusCode).toBe(403);
      expect(json(response).message).toBe('Your account is blocked from sending money. Please contact support.');
    }
    const internal = await post(blocked.token, '/api/transaction/internal-transfer', { from: 'checking', to: 'savings', amount: 40 });
    expect(internal.statusCode).toBe(201);
    await fund(ctx, other.userId, 20);
    expect(
      (await post(other.token, '/api/transaction/transfer', { amount: 5, accountType: 'checking', accountNumber: blocked.accountNumber, to: 'Blocked' }))
        .statusCode,
    ).toBe(200);
    const received = await post(other.token, '/api/transaction/transfer', {
      amount: 5,
      accountType: 'checking',
      accountNumber: blocked.accountNumber,
      to: 'Blocked',
      paymentPin: await lastCode(ctx, other.email),
    });
    expect(received.statusCode).toBe(201);
    expect(await balances(blocked.token)).toMatchObject({ checking: 65, savings: 40 });
  });

  it('keeps every invariant after all of this', async () => {
    const result = await verifyLedger(ctx.database.db);
    expect(result).toMatchObject({ ok: true });
  });
});
