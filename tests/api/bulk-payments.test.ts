import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_ROWS_MESSAGE, BULK_TOO_MANY_MESSAGE } from '../../src/shared/contracts/bulk-payments';
import { verifyLedger } from '../../src/server/ledger/verify';
import {
  adminToken,
  bearer,
  createCustomer,
  drainJobs,
  json,
  lastCode,
  mailbox,
  type TestContext,
  createTestApp,
  valueDate,
  staffCall,
  fund,
} from '../support/app';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

let keySeq = 0;
const key = () => `bulk-${Date.now()}-${keySeq++}`;
type Customer = Awaited<ReturnType<typeof createCustomer>>;

const bulk = (token: string, payload: Record<string, unknown>, idempotencyKey = key()) =>
  ctx.app.inject({ method: 'POST', url: '/api/transaction/bulk', headers: { ...bearer(token), 'idempotency-key': idempotencyKey }, payload });

const balances = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;

async function journalSize(): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Both calls: the code is mailed for exactly this batch, then the batch is posted with it. */
async function approveAndPay(payer: Customer, payload: Record<string, unknown>) {
  const step1 = await bulk(payer.token, payload);
  expect(step1.statusCode, step1.body).toBe(200);
  const code = await lastCode(ctx, payer.email);
  return bulk(payer.token, { ...payload, paymentPin: code });
}

describe('bulk payments', () => {
  let payer: Customer;
  let alice: Customer;
  let bob: Customer;
  beforeAll(async () => {
    payer = await createCustomer(ctx);
    alice = await createCustomer(ctx);
    bob = await createCustomer(ctx);
    await fund(ctx, payer.userId, 10_000, { account: 'checking' });
    await fund(ctx, payer.userId, 300, { account: 'savings' });
  });

  it('offers a CSV template with the four columns', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/transaction/bulk/template.csv', headers: bearer(payer.token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="bulk-payments-template.csv"/);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('accountNumber,amount,name,description');
    expect(lines).toHaveLength(3);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/transaction/bulk/template.csv' })).statusCode).toBe(401);
  });

  it('answers every bad row at once and posts nothing', async () => {
    const before = { payer: await balances(payer.token), alice: await balances(alice.token), journal: await journalSize() };
    const response = await bulk(payer.token, {
      from: 'checking',
      payments: [
        { accountNumber: alice.accountNumber, amount: 10, name: 'Alice', description: 'Fine row' },
        { accountNumber: '1234567897', amount: 10, name: 'Nobody', description: 'Unknown account' },
        { accountNumber: payer.accountNumber, amount: 10, name: 'Me', description: 'My own account' },
        { accountNumber: alice.accountNumber, amount: 0, name: '', description: 'Two bad fields' },
        { accountNumber: '12ab', amount: '1.234', name: 'X', description: 'Bad number and amount' },
        { accountNumber: bob.accountNumber, amount: 5, name: 'Bob\u0007', description: 'x'.repeat(501) },
        'not an object',
      ],
    });
    expect(response.statusCode).toBe(400);
    const body = json(response);
    expect(body.message).toBe(BULK_ROWS_MESSAGE);
    expect(body.rows).toEqual([
      { row: 2, field: 'accountNumber', message: 'No account with this number at this bank' },
      { row: 3, field: 'accountNumber', message: 'You cannot pay your own account' },
      { row: 4, field: 'amount', message: 'Amount must be greater than 0' },
      { row: 4, field: 'name', message: 'Name is required' },
      { row: 5, field: 'accountNumber', message: 'Account number must be 10 digits' },
      { row: 5, field: 'amount', message: 'Amount can have at most 2 decimal places' },
      { row: 6, field: 'name', message: 'Name must not contain control characters' },
      { row: 6, field: 'description', message: 'Description must be at most 500 characters' },
      { row: 7, field: 'row', message: 'Each payment has an accountNumber, amount, name and description' },
    ]);
    // Nothing was posted, no code was sent.
    expect(await balances(payer.token)).toEqual(before.payer);
    expect(await balances(alice.token)).toEqual(before.alice);
    expect(await journalSize()).toBe(before.journal);
    expect((await mailbox(ctx)).some((mail) => mail.to === payer.email && /bulk payment/.test(mail.text))).toBe(false);
  });

  it('names closed accounts and reads rows from a CSV file the same way', async () => {
    const closed = await createCustomer(ctx);
    await ctx.database.db.updateTable('users').set({ closed_at: new Date() }).where('id', '=', closed.userId).execute();
    const csv = [
      'accountNumber,amount,name,description',
      `${alice.accountNumber},12.50,Alice,"Salary, November"`,
      `${closed.accountNumber},5,Closed,Gone`,
      `${bob.accountNumber},,Bob,No amount`,
    ].join('\r\n');
    const response = await bulk(payer.token, { from: 'checking', csv });
    expect(response.statusCode).toBe(400);
    expect(json(response).rows).toEqual([
      { row: 2, field: 'accountNumber', message: 'This account is closed and cannot receive payments' },
      { row: 3, field: 'amount', message: 'Amount is required' },
    ]);
    const noHeader = await bulk(payer.token, { from: 'checking', csv: `${alice.accountNumber},1,Alice,x` });
    expect(noHeader.statusCode).toBe(400);
    expect(json(noHeader).message).toMatch(/The CSV header must name the columns accountNumber, amount, name, description/);
    const broken = await bulk(payer.token, { from: 'checking', csv: 'accountNumber,amount,name\n"unterminated,1,x' });
    expect(broken.statusCode).toBe(400);
    expect(json(broken).message).toMatch(/^The CSV file could not be read/);
  });

  it('refuses more than 1,000 rows, an empty batch, both forms at once, and a bad source account', async () => {
    const row = { accountNumber: alice.accountNumber, amount: 1, name: 'Alice', description: 'x' };
    const tooMany = await bulk(payer.token, { from: 'checking', payments: Array.from({ length: 1001 }, () => row) });
    expect(tooMany.statusCode).toBe(400);
    expect(json(tooMany).message).toBe(BULK_TOO_MANY_MESSAGE);
    const csvTooMany = await bulk(payer.token, {
      from: 'checking',
      csv: ['accountNumber,amount,name,description', ...Array.from({ length: 1001 }, () => `${alice.accountNumber},1,Alice,x`)].join('\n'),
    });
    expect(csvTooMany.statusCode).toBe(400);
    expect(json(csvTooMany).message).toBe(BULK_TOO_MANY_MESSAGE);
    expect(json(await bulk(payer.token, { from: 'checking', payments: [] })).message).toBe('Add at least one payment.');
    expect(json(await bulk(payer.token, { from: 'checking', payments: [row], csv: 'a' })).message).toBe('Send the payments or a CSV file (one of them)');
    expect(json(await bulk(payer.token, { from: 'loans', payments: [row] })).message).toBe('from must be savings or checking');
    expect((await bulk(payer.token, { from: 'checking', payments: [row], paymentPin: '12' })).statusCode).toBe(400);
  });

  it('is for signed-in customers who may send money', async () => {
    const payload = { from: 'checking', payments: [{ accountNumber: alice.accountNumber, amount: 1, name: 'Alice' }] };
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/api/transaction/bulk', headers: { 'idempotency-key': key() }, payload });
    expect(anonymous.statusCode).toBe(401);
    expect((await bulk(admin, payload)).statusCode).toBe(403);
    const blocked = await createCustomer(ctx);
    await ctx.database.db.updateTable('users').set({ is_blocked: true }).where('id', '=', blocked.userId).execute();
    const refused = await bulk(blocked.token, payload);
    expect(refused.statusCode).toBe(403);
    expect(json(refused).message).toBe('Your account is blocked from sending money. Please contact support.');
  });

  it('refuses a batch whose total the account cannot cover, before and after the code, posting nothing', async () => {
    const payload = {
      from: 'savings',
      payments: [
        { accountNumber: alice.accountNumber, amount: 200, name: 'Alice', description: 'Half' },
        { accountNumber: bob.accountNumber, amount: 100.01, name: 'Bob', description: 'Other half' },
      ],
    };
    const before = await journalSize();
    const refused = await bulk(payer.token, payload);
    expect(refused.statusCode).toBe(400);
    expect(json(refused).message).toBe('Insufficient funds');

    // The money leaves between the code and the posting: the whole batch fails, not just its last row.
    const affordable = { ...payload, payments: [payload.payments[0], { ...payload.payments[1], amount: 100 }] };
    expect((await bulk(payer.token, affordable)).statusCode).toBe(200);
    const code = await lastCode(ctx, payer.email);
    const drain = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(payer.token), 'idempotency-key': key() },
      payload: { from: 'savings', to: 'checking', amount: 0.01 },
    });
    expect(drain.statusCode).toBe(201);
    const late = await bulk(payer.token, { ...affordable, paymentPin: code });
    expect(late.statusCode).toBe(400);
    expect(json(late).message).toBe('Insufficient funds');
    expect(await journalSize()).toBe(before + 1); // only the move between own accounts
    expect((await balances(payer.token)).savings).toBe(299.99);
  });

  it('binds the code to the batch: a changed batch is refused with it', async () => {
    const payload = {
      from: 'checking',
      payments: [
        { accountNumber: alice.accountNumber, amount: 40, name: 'Alice', description: 'Invoice 1' },
        { accountNumber: bob.accountNumber, amount: 60, name: 'Bob', description: 'Invoice 2' },
      ],
    };
    const step1 = await bulk(payer.token, payload);
    expect(step1.statusCode).toBe(200);
    expect(json(step1).data).toMatchObject({ step: 'code', amount: 100, payee: '2 payments' });
    const code = await lastCode(ctx, payer.email);
    expect((await mailbox(ctx))[0]?.text).toMatch(/a bulk payment of 2 payments totalling \$100\.00 from your checking account/);
    const before = await journalSize();

    const changes = [
      { ...payload, payments: [{ ...payload.payments[0], amount: 41 }, payload.payments[1]] }, // an amount
      { ...payload, payments: [payload.payments[0], { ...payload.payments[1], accountNumber: alice.accountNumber }] }, // a payee
      { ...payload, payments: [payload.payments[0], { ...payload.payments[1], description: 'Invoice 3' }] }, // a description
      { ...payload, payments: [payload.payments[1], payload.payments[0]] }, // the order (same count and total)
      { ...payload, payments: [payload.payments[0]] }, // a row fewer
      { ...payload, from: 'savings' }, // the source account
    ];
    for (const changed of changes) {
      const refused = await bulk(payer.token, { ...changed, paymentPin: code });
      expect(refused.statusCode).toBe(400);
      expect(json(refused).message).toBe('No IMS code is waiting for this batch of payments. Please request a new code.');
    }
    expect(await journalSize()).toBe(before);

    const paid = await bulk(payer.token, { ...payload, paymentPin: code });
    expect(paid.statusCode, paid.body).toBe(201);
    // Used once: the same code does not pay the same batch again under a new key.
    const again = await bulk(payer.token, { ...payload, paymentPin: code });
    expect(again.statusCode).toBe(400);
  });

  it('posts every row of a valid batch, all balances match, and a retry replays', async () => {
    const before = { payer: await balances(payer.token), alice: await balances(alice.token), bob: await balances(bob.token), journal: await journalSize() };
    const payments = Array.from({ length: 20 }, (_, index) => ({
      accountNumber: index % 2 === 0 ? alice.accountNumber : bob.accountNumber,
      amount: `${index + 1}.25`,
      name: index % 2 === 0 ? 'Alice Staff' : 'Bob Staff',
      description: `Salary row ${index + 1}`,
    }));
    const payload = { from: 'checking', payments };
    const step1 = await bulk(payer.token, payload);
    const code = await lastCode(ctx, payer.email);
    expect(json(step1).data.amount).toBe(215);
    const idempotencyKey = key();
    const paid = await bulk(payer.token, { ...payload, paymentPin: code }, idempotencyKey);
    expect(paid.statusCode, paid.body).toBe(201);
    const body = json(paid);
    expect(body.message).toBe('Bulk payment successful');
    expect(body.data).toMatchObject({ count: 20, total: 215 });
    expect(body.data.batchId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.results.map((result: { row: number }) => result.row)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(new Set(body.data.results.map((result: { entryId: string }) => result.entryId)).size).toBe(20);

    // Alice got rows 1, 3, ... 19 (1.25 + 3.25 + ... + 19.25 = 102.5), Bob the others (2.25 + ... + 20.25 = 112.5).
    expect((await balances(payer.token)).checking).toBeCloseTo(before.payer.checking - 215, 2);
    expect((await balances(alice.token)).checking).toBeCloseTo(before.alice.checking + 102.5, 2);
    expect((await balances(bob.token)).checking).toBeCloseTo(before.bob.checking + 112.5, 2);
    expect(await journalSize()).toBe(before.journal + 20);

    // Each row is a line in both histories, with its own description and names.
    const history = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction?pageSize=100&q=Salary%20row', headers: bearer(payer.token) })).data;
    expect(history.total).toBe(20);
    const line = history.items.find((item: { description: string }) => item.description === 'Salary row 3');
    expect(line).toMatchObject({ amount: 3.25, transactionType: 'debit', counterparty: 'Alice Staff', kind: 'transfer' });
    // The answer names each row's line by the id the history, statements and exports give it.
    expect(body.data.results[2]).toMatchObject({ row: 3, transactionId: line._id, entryId: line.entryId });
    const received = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction?pageSize=100&type=credit', headers: bearer(alice.token) })).data;
    expect(received.items.some((item: { description: string }) => /: Salary row 3$/.test(item.description))).toBe(true);

    // A retry with the same key replays the answer and posts nothing.
    const retry = await bulk(payer.token, { ...payload, paymentPin: code }, idempotencyKey);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect(json(retry)).toEqual(body);
    expect(await journalSize()).toBe(before.journal + 20);
  });

  it("tells on the approval step which rows' names are not their account holders', and keeps with each payment what was told", async () => {
    const priya = await createCustomer(ctx, { firstName: 'Priya', lastName: 'Raman' });
    const tom = await createCustomer(ctx, { firstName: 'Tom', lastName: 'Okafor' });
    const payments = [
      { accountNumber: priya.accountNumber, amount: '1.00', name: 'Priya Raman' },
      { accountNumber: priya.accountNumber, amount: '2.00', name: 'P Raman' },
      { accountNumber: tom.accountNumber, amount: '3.00', name: 'okafor tom' },
      { accountNumber: tom.accountNumber, amount: '4.00', name: 'Someone Else' },
    ];
    const step1 = await bulk(payer.token, { from: 'checking', payments });
    expect(step1.statusCode, step1.body).toBe(200);
    // Only the rows that do not match are listed, and never with the holder's name (a batch of
    // 1,000 guesses would otherwise read 1,000 names).
    expect(json(step1).data.payeeChecks).toEqual([
      { row: 2, result: 'close_match' },
      { row: 4, result: 'no_match' },
    ]);
    expect(step1.body).not.toContain('Priya Raman');
    const paid = await bulk(payer.token, { from: 'checking', payments, paymentPin: await lastCode(ctx, payer.email) });
    expect(paid.statusCode, paid.body).toBe(201);
    const entries = await ctx.database.db
      .selectFrom('journal_entries')
      .select('details')
      .where(
        'id',
        'in',
        json(paid).data.results.map((result: { entryId: string }) => result.entryId),
      )
      .execute();
    const told = entries.map((entry) => entry.details as { bulk: { row: number }; payee: { nameCheck: string } }).sort((a, b) => a.bulk.row - b.bulk.row);
    expect(told.map((details) => details.payee.nameCheck)).toEqual(['match', 'close_match', 'match', 'no_match']);
  });

  it('pays 1,000 rows from a CSV file in one batch', async () => {
    const before = { alice: await balances(alice.token), journal: await journalSize() };
    const csv = [
      'accountNumber,amount,name,description',
      ...Array.from({ length: 1000 }, (_, index) => `${alice.accountNumber},1.01,Alice,Row ${index + 1}`),
    ].join('\n');
    const paid = await approveAndPay(payer, { from: 'checking', csv });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(json(paid).data).toMatchObject({ count: 1000, total: 1010 });
    expect((await balances(alice.token)).checking).toBeCloseTo(before.alice.checking + 1010, 2);
    expect(await journalSize()).toBe(before.journal + 1000);
  });

  it('keeps every invariant after all of this', async () => {
    await drainJobs(ctx);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });
});

describe('bulk payments and the per-customer cap on money calls', () => {
  it('counts a batch of many payments as one money call per request', async () => {
    const limited = await createTestApp({ rateLimits: true, env: { MONEY_CALLS_PER_MINUTE: '3' } });
    try {
      const staff = await adminToken(limited);
      const payer = await createCustomer(limited);
      const payee = await createCustomer(limited);
      const funded = await staffCall(limited, {
        method: 'POST',
        url: `/api/transaction/admin/${payer.userId}`,
        headers: { ...bearer(staff), 'idempotency-key': key() },
        payload: { amount: 100, transactionType: 'credit', date: valueDate(), description: 'Test funding', reason: 'test setup', account: 'checking' },
      });
      expect(funded.statusCode).toBe(201);
      const payload = { from: 'checking', payments: Array.from({ length: 50 }, () => ({ accountNumber: payee.accountNumber, amount: 1, name: 'Payee' })) };
      const call = (body: Record<string, unknown>) =>
        limited.app.inject({ method: 'POST', url: '/api/transaction/bulk', headers: { ...bearer(payer.token), 'idempotency-key': key() }, payload: body });
      expect((await call(payload)).statusCode).toBe(200);
      expect((await call({ ...payload, paymentPin: await lastCode(limited, payer.email) })).statusCode).toBe(201);
      expect((await call(payload)).statusCode).toBe(200);
      const fourth = await call(payload);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});
