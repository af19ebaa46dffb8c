import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAccountNumber } from '../../src/server/ledger/accounts';
import { sealAll } from '../../src/server/ledger/sealer';
import { verifyLedger } from '../../src/server/ledger/verify';
import { adminToken, bearer, createCustomer, fund, json, lastCode, type TestContext, createTestApp, valueDate, staffCall } from '../support/app';

let ctx: TestContext;
let admin: string;
let keySeq = 0;
const key = () => `admin-${Date.now()}-${keySeq++}`;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>, token = admin) =>
  staffCall(ctx, { method, url, headers: { ...bearer(token), 'idempotency-key': key() }, ...(payload ? { payload } : {}) });
const balances = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;
const valid = { amount: 250, transactionType: 'credit', date: valueDate(-39), description: 'Goodwill credit', reason: 'Complaint #42 resolved' };

describe('staff entries', () => {
  it('posts a reasoned, audited adjustment the customer sees with its real booking time', async () => {
    const customer = await createCustomer(ctx);
    const started = Date.now();
    const response = await call('POST', `/api/transaction/admin/${customer.userId}`, valid);
    expect(response.statusCode).toBe(201);
    expect(json(response).message).toBe('Transaction added successfully');
    const lines = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).data.items;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      kind: 'adjustment',
      description: 'Goodwill credit',
      date: valueDate(-39),
      amount: 250,
      transactionType: 'credit',
      account: 'checking',
    });
    expect(new Date(lines[0].bookedAt).getTime()).toBeGreaterThanOrEqual(started - 1000);
    const auditRow = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'transaction.create')
      .where('target_user_id', '=', customer.userId)
      .executeTakeFirstOrThrow();
    expect(auditRow.reason).toBe('Complaint #42 resolved');
    expect(auditRow.actor_email).toBe('admin@example.com');
    expect(auditRow.before).toMatchObject({ balance: 0 });
    expect(auditRow.after).toMatchObject({ balance: 250 });
    const operations = await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('kind', '=', 'bank_operations').executeTakeFirstOrThrow();
    expect(operations.balance).toBeLessThanOrEqual(-25000);

    const savingsDebit = await call('POST', `/api/transaction/admin/${customer.userId}`, { ...valid, transactionType: 'debit', account: 'savings' });
    expect(savingsDebit.statusCode).toBe(400);
    expect(json(savingsDebit).message).toBe('Insufficient funds');
  });

  it('rejects bad input with clear messages', async () => {
    const customer = await createCustomer(ctx);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ amount: undefined }, /Please fill all fields/],
      [{ amount: 0 }, /greater than 0/],
      [{ transactionType: 'gift' }, /All fields are required/],
      [{ date: '' }, /All fields are required/],
      [{ date: '2026-02-30' }, /real date/],
      [{ description: '' }, /All fields are required/],
      [{ description: 'x'.repeat(501) }, /at most 500/],
      [{ reason: undefined }, /reason is required/i],
      [{ reason: ' ' }, /reason is required/i],
      [{ account: 'loans' }, /savings or checking/],
    ];
    for (const [change, message] of cases) {
      const response = await call('POST', `/api/transaction/admin/${customer.userId}`, { ...valid, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(json(response).message).toMatch(message);
    }
    const unknown = await call('POST', '/api/transaction/admin/00000000-0000-7000-8000-000000000000', valid);
    expect(unknown.statusCode).toBe(404);
    const notUuid = await call('POST', '/api/transaction/admin/abc', valid);
    expect(notUuid.statusCode).toBe(404);
    const adminRow = await ctx.database.db.selectFrom('users').select('id').where('is_admin', '=', true).executeTakeFirstOrThrow();
    const toAdmin = await call('POST', `/api/transaction/admin/${adminRow.id}`, valid);
    expect(toAdmin.statusCode).toBe(404);
    const noKey = await staffCall(ctx, { method: 'POST', url: `/api/transaction/admin/${customer.userId}`, headers: bearer(admin), payload: valid });
    expect(noKey.statusCode).toBe(400);
    expect((await balances(customer.token)).checking).toBe(0);
  });

  it('lists all customers’ lines and one customer’s, newest first', async () => {
    const customer = await createCustomer(ctx);
    await call('POST', `/api/transaction/admin/${customer.userId}`, valid);
    await call('POST', `/api/transaction/admin/${customer.userId}`, { ...valid, amount: 10, description: 'Second' });
    const mine = json(await call('GET', `/api/transaction/admin/${customer.userId}?pageSize=5`)).data;
    expect(mine.total).toBe(2);
    expect(mine.items[0]).toMatchObject({ description: 'Second', userId: customer.userId, accountNumber: customer.accountNumber, kind: 'adjustment' });
    const all = json(await call('GET', '/api/transaction/admin?pageSize=100')).data;
    expect(all.total).toBeGreaterThan(mine.total);
    expect((await call('GET', '/api/transaction/admin/not-a-uuid')).statusCode).toBe(404);
  });

  it('filters the bank-wide journal by type and value date, each line naming its customer', async () => {
    // The back office's journal page (/admin/journal) relies on these filters and on the customer fields.
    const customer = await createCustomer(ctx, { firstName: 'Journal', lastName: 'Reader' });
    const day = valueDate(-333);
    await call('POST', `/api/transaction/admin/${customer.userId}`, { ...valid, date: day, amount: 120, description: 'Journal credit' });
    await call('POST', `/api/transaction/admin/${customer.userId}`, {
      ...valid,
      date: day,
      amount: 45,
      transactionType: 'debit',
      description: 'Journal debit',
    });
    const onDay = json(await call('GET', `/api/transaction/admin?from=${day}&to=${day}`)).data;
    expect(onDay.total).toBe(2);
    expect(onDay.items.map((line: { description: string }) => line.description)).toEqual(['Journal debit', 'Journal credit']);
    expect(onDay.items[1]).toMatchObject({
      userId: customer.userId,
      customerName: 'Journal Reader',
      accountNumber: customer.accountNumber,
      account: 'checking',
      kind: 'adjustment',
      transactionType: 'credit',
      amount: 120,
      date: day,
    });
    const credits = json(await call('GET', `/api/transaction/admin?type=credit&from=${day}&to=${day}`)).data;
    expect(credits.items.map((line: { description: string }) => line.description)).toEqual(['Journal credit']);
    const paged = json(await call('GET', `/api/transaction/admin?from=${day}&to=${day}&pageSize=1&page=2`)).data;
    expect(paged).toMatchObject({ page: 2, pageSize: 1, total: 2, items: [{ description: 'Journal credit' }] });
    // A range that ends before it starts is refused, as the journal refuses it, not answered empty.
    const reversed = await call('GET', '/api/transaction/admin?from=1999-07-09&to=1999-07-07');
    expect(reversed.statusCode).toBe(400);
    expect(json(reversed).message).toBe('from must be on or before to');
    for (const query of ['type=gift', 'from=2026-02-30', 'to=07/08/1999', 'pageSize=0', 'page=0']) {
      expect((await call('GET', `/api/transaction/admin?${query}`)).statusCode, query).toBe(400);
    }
    expect((await call('GET', '/api/transaction/admin', undefined, customer.token)).statusCode).toBe(403);
  });

  it('changes only the description (as a note; the entry itself is untouched)', async () => {
    const customer = await createCustomer(ctx);
    const posted = json(await call('POST', `/api/transaction/admin/${customer.userId}`, valid)).data;
    await sealAll(ctx.database.db);
    const chained = () => ctx.database.db.selectFrom('ledger_chain').select('hash').where('entry_id', '=', posted.entryId).executeTakeFirstOrThrow();
    const hashBefore = (await chained()).hash;
    const updated = await call('PUT', `/api/transaction/admin/${posted._id}`, { description: 'Goodwill credit (corrected)', amount: 99999 });
    expect(updated.statusCode).toBe(200);
    const line = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).data.items[0];
    expect(line).toMatchObject({ description: 'Goodwill credit (corrected)', amount: 250 });
    const entry = await ctx.database.db.selectFrom('journal_entries').select(['description']).where('id', '=', posted.entryId).executeTakeFirstOrThrow();
    expect(entry).toEqual({ description: 'Goodwill credit' });
    expect((await chained()).hash).toBe(hashBefore);
    const auditRow = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'transaction.describe')
      .where('target_id', '=', posted.entryId)
      .executeTakeFirstOrThrow();
    expect(auditRow.before).toEqual({ description: 'Goodwill credit' });
    expect((await call('PUT', `/api/transaction/admin/${posted._id}`, { description: '' })).statusCode).toBe(400);
    expect((await call('PUT', '/api/transaction/admin/00000000-0000-7000-8000-000000000000', { description: 'x' })).statusCode).toBe(404);
  });

  it('"deletes" by reversal: the original stays, marked reversed, and cannot be reversed twice', async () => {
    const customer = await createCustomer(ctx);
    const posted = json(await call('POST', `/api/transaction/admin/${customer.userId}`, valid)).data;
    const noReason = await call('DELETE', `/api/transaction/admin/${posted._id}`, {});
    expect(noReason.statusCode).toBe(400);
    const reversed = await call('DELETE', `/api/transaction/admin/${posted._id}`, { reason: 'Posted to the wrong customer' });
    expect(reversed.statusCode).toBe(200);
    expect(json(reversed).message).toBe('Transaction reversed');
    const lines = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).data.items;
    expect(lines).toHaveLength(2);
    const [reversal, original] = lines;
    expect(reversal).toMatchObject({ kind: 'reversal', transactionType: 'debit', amount: 250, reversalOf: posted.entryId, status: 'completed' });
    expect(original).toMatchObject({ kind: 'adjustment', status: 'reversed', reversedBy: reversal.entryId });
    const complete = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction/complete', headers: bearer(customer.token) })).data.items;
    expect(complete.map((item: { entryId: string }) => item.entryId)).not.toContain(posted.entryId);
    expect((await balances(customer.token)).checking).toBe(0);
    const twice = await staffCall(ctx, {
      method: 'DELETE',
      url: `/api/transaction/admin/${posted.entryId}?reason=again`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
    });
    expect(twice.statusCode).toBe(409);
    const ofReversal = await call('DELETE', `/api/transaction/admin/${reversal._id}`, { reason: 'undo the undo' });
    expect(ofReversal.statusCode).toBe(400);
    expect(
      await ctx.database.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'transaction.reverse')
        .where('target_id', '=', posted.entryId)
        .executeTakeFirst(),
    ).toBeTruthy();
  });

  it('audits a reversal and a description note about every customer the entry touches', async () => {
    const payer = await createCustomer(ctx);
    const payee = await createCustomer(ctx);
    await fund(ctx, payer.userId, 100);
    const transfer = { amount: 30, accountType: 'checking', accountNumber: payee.accountNumber, to: 'Payee Person', description: 'Rent share' };
    const send = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'POST', url: '/api/transaction/transfer', headers: { ...bearer(payer.token), 'idempotency-key': key() }, payload });
    expect((await send(transfer)).statusCode).toBe(200);
    const paid = await send({ ...transfer, paymentPin: await lastCode(ctx, payer.email) });
    expect(paid.statusCode, paid.body).toBe(201);
    const entryId = json(paid).data.entryId as string;
    expect((await call('PUT', `/api/transaction/admin/${entryId}`, { description: 'Rent share (corrected)', reason: 'Typo' })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/transaction/admin/${entryId}`, { reason: 'Paid twice' })).statusCode).toBe(200);
    const records = await ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_user_id'])
      .where('target_id', '=', entryId)
      .where('action', 'in', ['transaction.describe', 'transaction.reverse'])
      .execute();
    const about = (action: string) =>
      records
        .filter((record) => record.action === action)
        .map((record) => record.target_user_id)
        .sort();
    const both = [payer.userId, payee.userId].sort();
    expect(about('transaction.describe')).toEqual(both);
    expect(about('transaction.reverse')).toEqual(both);
    // The payee's own trail in the back office shows the reversal of the money they received.
    const trail = json(await call('GET', `/api/admin/audit?customer=${payee.userId}&pageSize=50`));
    expect(trail.data.items.map((item: { action: string }) => item.action)).toContain('transaction.reverse');
  });

  it('refuses to reverse a credit the customer already spent', async () => {
    const customer = await createCustomer(ctx);
    const posted = json(await call('POST', `/api/transaction/admin/${customer.userId}`, valid)).data;
    const move = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(customer.token), 'idempotency-key': key() },
      payload: { from: 'checking', to: 'savings', amount: 200 },
    });
    expect(move.statusCode).toBe(201);
    const reversed = await call('DELETE', `/api/transaction/admin/${posted._id}`, { reason: 'mistake' });
    expect(reversed.statusCode).toBe(400);
    // Staff are told whose account lacks the money.
    const owner = await ctx.database.db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', customer.userId).executeTakeFirstOrThrow();
    expect(json(reversed).message).toBe(
      `Insufficient funds: ${owner.first_name} ${owner.last_name}'s checking account ${customer.accountNumber} holds less than this reversal takes back.`,
    );
  });

  it('turns balance targets into correction entries and keeps account numbers unique', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const url = `/api/user/admin/account/${customer.userId}`;
    const updated = await call('PUT', url, { savings: '1500.50', checking: 20, number: customer.accountNumber, reason: 'Migration from the old core' });
    expect(updated.statusCode).toBe(200);
    expect(json(updated).message).toBe('Account balance successfully');
    expect(await balances(customer.token)).toMatchObject({ savings: 1500.5, checking: 20, number: customer.accountNumber });
    const lines = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).data.items;
    expect(lines).toHaveLength(2);
    expect(lines.every((line: { kind: string; description: string }) => line.kind === 'adjustment' && line.description === 'Balance correction')).toBe(true);
    // A target too large is told the limit, however many digits; one with cents beyond 2 places, the form.
    for (const [savings, message] of [
      ['99999999999999', 'Balances must be at most $100,000,000.00'],
      [1e20, 'Balances must be at most $100,000,000.00'],
      ['100000000.01', 'Balances must be at most $100,000,000.00'],
      ['12.345', 'Savings balance can have at most 2 decimal places'],
      ['1,500.50', 'Savings balance must be typed without commas, e.g. 1000.00'],
      ['-1', 'Savings balance cannot be negative'],
    ] as const) {
      const refused = await call('PUT', url, { savings, checking: 20, number: customer.accountNumber, reason: 'Correction' });
      expect(refused.statusCode, String(savings)).toBe(400);
      expect(json(refused).message, String(savings)).toBe(message);
    }
    const down = await call('PUT', url, { savings: 0, checking: 20, number: customer.accountNumber, reason: 'Correction' });
    expect(down.statusCode).toBe(200);
    expect((await balances(customer.token)).savings).toBe(0);

    const taken = await call('PUT', url, { savings: 0, checking: 20, number: other.accountNumber, reason: 'Renumber' });
    expect(taken.statusCode).toBe(409);
    const badCheck = customer.accountNumber.slice(0, 9) + String((Number(customer.accountNumber[9]) + 1) % 10);
    const invalid = await call('PUT', url, { savings: 0, checking: 20, number: badCheck, reason: 'Renumber' });
    expect(invalid.statusCode).toBe(400);
    let fresh = generateAccountNumber();
    while (fresh === other.accountNumber) fresh = generateAccountNumber();
    const renumbered = await call('PUT', url, { savings: 0, checking: 20, number: fresh, reason: 'Renumber' });
    expect(renumbered.statusCode).toBe(200);
    expect((await balances(customer.token)).number).toBe(fresh);
    for (const [change, message] of [
      [{ savings: '' }, /All fields are required/],
      [{ number: '' }, /All fields are required/],
      [{ number: '12345' }, /10 digits/],
      [{ checking: -5 }, /^Checking balance cannot be negative$/],
      [{ reason: '' }, /reason/i],
    ] as const) {
      const response = await call('PUT', url, Object.assign({ savings: 0, checking: 20, number: fresh, reason: 'ok' }, change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(json(response).message).toMatch(message);
    }
    const auditRows = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.update')
      .where('target_user_id', '=', customer.userId)
      .orderBy('id')
      .execute();
    expect(auditRows).toHaveLength(3);
    expect(auditRows[0]?.before).toMatchObject({ savings: 0, checking: 0 });
  });

  it('leaves a ledger that verifies', async () => {
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });
});
