import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyPaymentCents, repaymentScheduleCents } from '../../src/shared/contracts/loans';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { LOAN_ENTRY_REVERSAL_MESSAGE } from '../../src/server/transactions/service';
import { LOAN_TERMS_CHANGED_MESSAGE } from '../../src/server/loans/service';
import { adminToken, approveAsSecondStaff, bearer, createCustomer, createTestApp, json, signIn, type TestContext, mailbox, staffCall } from '../support/app';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

const application = { loanAmount: 10000, loanType: 'personal', loanDuration: 36, loanPurpose: 'Kitchen renovation' };
const apply = (token: string, body: unknown = application) =>
  ctx.app.inject({ method: 'POST', url: '/api/loans', headers: bearer(token), payload: body as object });
/** The terms the staff queue shows for an application now: what the back office approves. */
const shownTerms = async (id: string) => {
  const loan = await ctx.database.db
    .selectFrom('loans')
    .select(['amount_cents', 'loan_type', 'duration_months'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { loanAmount: loan.amount_cents / 100, loanType: loan.loan_type, loanDuration: loan.duration_months };
};
/** Approves (through the second staff member above the four-eyes limit) on the given terms, else those shown now. */
const approve = async (id: string, key = randomUUID(), token = admin, terms?: object) =>
  staffCall(ctx, {
    method: 'POST',
    url: `/api/admin/loans/${id}/approve`,
    headers: { ...bearer(token), 'idempotency-key': key },
    payload: terms ?? (await shownTerms(id)),
  });
const me = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data;

async function verifiedCustomer() {
  const customer = await createCustomer(ctx);
  await ctx.database.db.updateTable('users').set({ verification_status: 'verified' }).where('id', '=', customer.userId).execute();
  return customer;
}

describe('amortization', () => {
  it('matches the textbook formula and repays exactly the principal', () => {
    // $10,000 at 9.99% over 36 months: 322.626... a month by the standard formula, rounded up to the cent.
    expect(monthlyPaymentCents(1_000_000, 999, 36)).toBe(32263);
    expect(monthlyPaymentCents(1_200_000, 0, 12)).toBe(100_000);
    const schedule = repaymentScheduleCents(1_000_000, 999, 36, '2026-01-31');
    expect(schedule).toHaveLength(36);
    expect(schedule.reduce((sum, row) => sum + row.principalCents, 0)).toBe(1_000_000);
    expect(schedule.at(-1)?.balanceCents).toBe(0);
    expect(schedule[0]?.dueDate).toBe('2026-02-28');
    expect(schedule[1]?.dueDate).toBe('2026-03-31');
  });
});

describe('customer loans', () => {
  it("applies with the spec's message and a priced application, lists it, edits and withdraws it", async () => {
    const customer = await createCustomer(ctx);
    expect(json(await ctx.app.inject({ method: 'GET', url: '/api/loans', headers: bearer(customer.token) })).data).toEqual([]);
    const response = await apply(customer.token);
    expect(response.statusCode).toBe(201);
    expect(json(response).message).toBe('Loan application submitted successfully, check your email for updates.');
    const loan = json(response).data;
    expect(loan).toMatchObject({
      loanAmount: 10000,
      loanType: 'personal',
      loanDuration: 36,
      status: 'pending',
      interestRate: 9.99,
      monthlyPayment: 322.63,
      schedule: null,
    });
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && /loan application/.test(mail.subject))).toBe(true);

    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/loans/${loan._id}`,
      headers: bearer(customer.token),
      payload: { ...application, loanAmount: '20000.50', loanDuration: 60 },
    });
    expect(edited.statusCode).toBe(200);
    expect(json(edited).data).toMatchObject({ loanAmount: 20000.5, loanDuration: 60, monthlyPayment: monthlyPaymentCents(2_000_050, 999, 60) / 100 });

    const withdrawn = await ctx.app.inject({ method: 'DELETE', url: `/api/loans/${loan._id}`, headers: bearer(customer.token) });
    expect(withdrawn.statusCode).toBe(200);
    expect(json(withdrawn).data.status).toBe('withdrawn');
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/loans/${loan._id}`, headers: bearer(customer.token) })).statusCode).toBe(409);
    expect((await ctx.app.inject({ method: 'PUT', url: `/api/loans/${loan._id}`, headers: bearer(customer.token), payload: application })).statusCode).toBe(
      409,
    );
  });

  it('refuses amounts outside the product limits, durations outside 12-60 months and bad fields', async () => {
    const customer = await createCustomer(ctx);
    const small = await apply(customer.token, { ...application, loanAmount: 100 });
    expect(small.statusCode).toBe(400);
    expect(json(small).message).toBe('A personal loan is between $2,500.00 and $50,000.00');
    expect(json(await apply(customer.token, { ...application, loanDuration: 72 })).message).toBe('Loan duration must be between 12 and 60 months');
    expect(json(await apply(customer.token, { ...application, loanDuration: 6 })).message).toBe('Loan duration must be between 12 and 60 months');
    expect(json(await apply(customer.token, { ...application, loanType: 'yacht' })).message).toBe('Loan type must be auto, home, personal or business');
    expect((await apply(customer.token, { ...application, loanAmount: '10.001' })).statusCode).toBe(400);
    expect((await apply(customer.token, { ...application, loanAmount: -5 })).statusCode).toBe(400);
    expect(json(await apply(customer.token, { ...application, loanPurpose: '' })).message).toBe('Loan purpose is required');
    expect((await apply(customer.token, { ...application, loanPurpose: 'x'.repeat(2000) })).statusCode).toBe(400);
    expect(json(await ctx.app.inject({ method: 'GET', url: '/api/loans', headers: bearer(customer.token) })).data).toEqual([]);
  });

  it('limits open applications to 3', async () => {
    const customer = await createCustomer(ctx);
    for (let index = 0; index < 3; index += 1) expect((await apply(customer.token)).statusCode).toBe(201);
    const fourth = await apply(customer.token);
    expect(fourth.statusCode).toBe(409);
    expect(json(fourth).message).toMatch(/already have 3 applications/);
  });

  it("never shows, edits or withdraws another customer's loan", async () => {
    const owner = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const id = json(await apply(owner.token)).data._id;
    expect(json(await ctx.app.inject({ method: 'GET', url: '/api/loans', headers: bearer(other.token) })).data).toEqual([]);
    expect((await ctx.app.inject({ method: 'PUT', url: `/api/loans/${id}`, headers: bearer(other.token), payload: application })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/loans/${id}`, headers: bearer(other.token) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/loans/123', headers: bearer(other.token) })).statusCode).toBe(404);
    const mine = json(await ctx.app.inject({ method: 'GET', url: '/api/loans', headers: bearer(owner.token) })).data;
    expect(mine[0].status).toBe('pending');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/loans' })).statusCode).toBe(401);
  });
});

describe('staff decisions', () => {
  it('approval disburses through the ledger (loans receivable -> checking), once, and shows the schedule', async () => {
    const customer = await verifiedCustomer();
    const before = (await me(customer.token)).account.checking;
    const id = json(await apply(customer.token, { ...application, loanAmount: 5000, loanType: 'auto', loanDuration: 24 })).data._id;
    const queue = json(await ctx.app.inject({ method: 'GET', url: '/api/admin/loans?status=pending', headers: bearer(admin) })).data;
    expect(queue.items.find((item: { _id: string }) => item._id === id)?.customer.email).toBe(customer.email);

    const receivable = await ctx.database.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('kind', '=', 'loans_receivable')
      .where('owner_id', 'is', null)
      .executeTakeFirstOrThrow();
    const key = randomUUID();
    const approved = await approve(id, key);
    expect(approved.statusCode).toBe(200);
    expect(json(approved).data.status).toBe('approved');
    // A retry with the same key answers the same and posts nothing more.
    const retry = await approve(id, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect((await approve(id)).statusCode).toBe(409);

    expect((await me(customer.token)).account.checking).toBe(before + 5000);
    const receivableAfter = await ctx.database.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('kind', '=', 'loans_receivable')
      .where('owner_id', 'is', null)
      .executeTakeFirstOrThrow();
    expect(receivableAfter.balance).toBe(receivable.balance - 500_000);
    const row = await ctx.database.db.selectFrom('loans').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const postings = await ctx.database.db.selectFrom('postings').select(['amount']).where('entry_id', '=', row.disbursement_entry_id!).execute();
    expect(postings.map((posting) => posting.amount).sort((a, b) => a - b)).toEqual([-500_000, 500_000]);
    // The payout is not reversed on its own (the loan would still be open): refused at once, nothing asked of a second staff member.
    const reversal = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/transaction/admin/${row.disbursement_entry_id}`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: { reason: 'Paid out in error' },
    });
    expect(reversal.statusCode).toBe(400);
    expect(json(reversal).message).toBe(LOAN_ENTRY_REVERSAL_MESSAGE);
    expect(
      await ctx.database.db.selectFrom('approvals').select('id').where('kind', '=', 'reversal').where('customer_id', '=', customer.userId).execute(),
    ).toEqual([]);

    const mine = json(await ctx.app.inject({ method: 'GET', url: '/api/loans', headers: bearer(customer.token) })).data[0];
    expect(mine.status).toBe('approved');
    expect(mine.schedule).toHaveLength(24);
    expect(mine.schedule[0].payment).toBe(mine.monthlyPayment);
    expect(mine.schedule.at(-1).balance).toBe(0);
    const log = await ctx.database.db.selectFrom('audit_log').select(['action']).where('target_id', '=', id).execute();
    expect(log.map((entry) => entry.action)).toEqual(['loan.approve']);
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && /loan is approved/.test(mail.subject))).toBe(true);
  });

  it('will not approve before the identity is verified, nor without an Idempotency-Key', async () => {
    const customer = await createCustomer(ctx);
    const id = json(await apply(customer.token)).data._id;
    const unverified = await approve(id);
    expect(unverified.statusCode).toBe(409);
    expect(json(unverified).message).toMatch(/identity is not verified/);
    // A large loan (four eyes) is refused the same at once: nothing is filed for a second staff member.
    const large = json(await apply(customer.token, { ...application, loanAmount: 45_000 })).data._id;
    const largeAsked = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/loans/${large}/approve`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: await shownTerms(large),
    });
    expect(largeAsked.statusCode).toBe(409);
    expect(json(largeAsked).message).toMatch(/identity is not verified/);
    expect(
      await ctx.database.db.selectFrom('approvals').select('id').where('kind', '=', 'loan_approval').where('customer_id', '=', customer.userId).execute(),
    ).toEqual([]);
    const noKey = await staffCall(ctx, { method: 'POST', url: `/api/admin/loans/${id}/approve`, headers: bearer(admin), payload: await shownTerms(id) });
    expect(noKey.statusCode).toBe(400);
    expect((await me(customer.token)).account.checking).toBe(0);
  });

  it('pays out only the terms the staff member approved: a change by the customer since is refused (409), at once or at the second approval', async () => {
    const customer = await verifiedCustomer();
    const change = (id: string, body: object) => ctx.app.inject({ method: 'PUT', url: `/api/loans/${id}`, headers: bearer(customer.token), payload: body });
    const loanOf = async (id: string) => ctx.database.db.selectFrom('loans').select(['status', 'amount_cents']).where('id', '=', id).executeTakeFirstOrThrow();

    // Below the four-eyes limit: the queue showed $9,000; the customer asks for $9,900 before the click.
    const small = json(await apply(customer.token, { ...application, loanAmount: 9000 })).data._id as string;
    const shown = await shownTerms(small);
    expect((await change(small, { ...application, loanAmount: 9900 })).statusCode).toBe(200);
    const stale = await approve(small, randomUUID(), admin, shown);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(json(stale).message).toBe(LOAN_TERMS_CHANGED_MESSAGE('personal loan of $9,900.00 over 36 months'));
    expect(await loanOf(small)).toEqual({ status: 'pending', amount_cents: 990_000 });
    expect((await me(customer.token)).account.checking).toBe(0);
    // Nor may the terms be made up: the same for another type or duration.
    expect((await approve(small, randomUUID(), admin, { ...(await shownTerms(small)), loanDuration: 24 })).statusCode).toBe(409);
    expect((await approve(small, randomUUID(), admin, { ...(await shownTerms(small)), loanType: 'auto' })).statusCode).toBe(409);

    // Above it: the second staff member is asked about $60,000; the customer then asks for $250,000.
    const large = json(await apply(customer.token, { ...application, loanType: 'home', loanAmount: 60_000 })).data._id as string;
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/loans/${large}/approve`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: await shownTerms(large),
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await change(large, { ...application, loanType: 'home', loanAmount: 250_000 })).statusCode).toBe(200);
    const second = await approveAsSecondStaff(ctx, json(asked).data.approvalId);
    expect(second.statusCode, second.body).toBe(409);
    expect(json(second).message).toBe(LOAN_TERMS_CHANGED_MESSAGE('home loan (home equity) of $250,000.00 over 36 months'));
    expect(await loanOf(large)).toEqual({ status: 'pending', amount_cents: 25_000_000 });
    const approval = await ctx.database.db.selectFrom('approvals').select('status').where('id', '=', json(asked).data.approvalId).executeTakeFirstOrThrow();
    expect(approval.status).toBe('failed');
    expect((await me(customer.token)).account.checking).toBe(0);

    // What is shown now is approved and paid: exactly that.
    expect((await approve(small)).statusCode).toBe(200);
    expect((await me(customer.token)).account.checking).toBe(9900);
  });

  it('rejects with a reason, audited and emailed; staff only', async () => {
    const customer = await verifiedCustomer();
    const id = json(await apply(customer.token)).data._id;
    const noReason = await ctx.app.inject({ method: 'POST', url: `/api/admin/loans/${id}/reject`, headers: bearer(admin), payload: {} });
    expect(noReason.statusCode).toBe(400);
    const demo = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
    expect((await approve(id, randomUUID(), demo)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/loans', headers: bearer(demo) })).statusCode).toBe(403);
    const rejected = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/loans/${id}/reject`,
      headers: bearer(admin),
      payload: { reason: 'Income too low for this amount.' },
    });
    expect(rejected.statusCode).toBe(200);
    expect(json(rejected).data).toMatchObject({ status: 'rejected', decisionReason: 'Income too low for this amount.' });
    expect((await approve(id)).statusCode).toBe(409);
    expect((await me(customer.token)).account.checking).toBe(0);
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && mail.text.includes('Income too low'))).toBe(true);
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/admin/loans/${randomUUID()}/reject`, headers: bearer(admin), payload: { reason: 'n/a reason' } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('loan repayments', () => {
  const repay = (token: string, id: string, key = randomUUID()) =>
    ctx.app.inject({ method: 'POST', url: `/api/loans/${id}/repayments`, headers: { ...bearer(token), 'idempotency-key': key }, payload: {} });
  const balanceOf = async (kind: 'loans_receivable' | 'interest_income') =>
    (await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('kind', '=', kind).where('owner_id', 'is', null).executeTakeFirstOrThrow())
      .balance;
  const topUp = async (userId: string, cents: number) => {
    const checking = await ctx.database.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('owner_id', '=', userId)
      .where('kind', '=', 'checking')
      .executeTakeFirstOrThrow();
    await ctx.database.db.transaction().execute(async (trx) =>
      postEntries(trx, [
        {
          kind: 'opening',
          description: 'Top-up',
          authorId: null,
          postings: [
            { accountId: await bankAccountId(trx, 'bank_cash'), amountCents: -cents },
            { accountId: checking.id, amountCents: cents },
          ],
        },
      ]),
    );
  };
  async function approvedLoan(body = application) {
    const customer = await verifiedCustomer();
    const id = json(await apply(customer.token, body)).data._id as string;
    expect((await approve(id)).statusCode).toBe(200);
    return { customer, id };
  }

  it('pays the next installment from checking: principal back to loans receivable, interest to interest income', async () => {
    const { customer, id } = await approvedLoan();
    const [first] = repaymentScheduleCents(1_000_000, 999, 36, new Date().toISOString().slice(0, 10));
    const receivable = await balanceOf('loans_receivable');
    const interest = await balanceOf('interest_income');
    const key = randomUUID();
    const paid = await repay(customer.token, id, key);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(json(paid).message).toBe('Installment 1 of 36 paid.');
    expect(json(paid).data).toMatchObject({
      installmentsPaid: 1,
      principalRepaid: first!.principalCents / 100,
      interestPaid: first!.interestCents / 100,
      outstanding: (1_000_000 - first!.principalCents) / 100,
      nextInstallment: { number: 2 },
      repaidAt: null,
    });
    expect((await me(customer.token)).account.checking).toBeCloseTo((1_000_000 - first!.paymentCents) / 100, 2);
    expect(await balanceOf('loans_receivable')).toBe(receivable + first!.principalCents);
    expect(await balanceOf('interest_income')).toBe(interest + first!.interestCents);
    // A retry with the same key answers the same and pays nothing more.
    const retry = await repay(customer.token, id, key);
    expect(retry.statusCode).toBe(201);
    expect(json(retry).data.installmentsPaid).toBe(1);
    expect((await me(customer.token)).account.checking).toBeCloseTo((1_000_000 - first!.paymentCents) / 100, 2);
    // The customer's history shows it.
    const history = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(customer.token) })).data.items;
    expect(history[0]).toMatchObject({ description: 'Personal loan installment 1 of 36', transactionType: 'debit', amount: first!.paymentCents / 100 });
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('refuses what it must, and changes nothing', async () => {
    const { customer, id } = await approvedLoan();
    const other = await verifiedCustomer();
    expect((await repay(other.token, id)).statusCode).toBe(404); // someone else's loan
    expect((await repay(customer.token, randomUUID())).statusCode).toBe(404);
    expect((await repay(customer.token, 'not-a-uuid')).statusCode).toBe(404);
    const noKey = await ctx.app.inject({ method: 'POST', url: `/api/loans/${id}/repayments`, headers: bearer(customer.token), payload: {} });
    expect(noKey.statusCode).toBe(400);
    const pending = json(await apply(other.token)).data._id as string;
    const notApproved = await repay(other.token, pending);
    expect(notApproved.statusCode).toBe(409);
    expect(json(notApproved).message).toBe('Only an approved loan can be repaid.');
    expect((await repay(admin, id)).statusCode).toBe(403);
    // Not enough in checking: the customer moved the money to savings.
    const moved = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(customer.token), 'idempotency-key': randomUUID() },
      payload: { from: 'checking', to: 'savings', amount: 10000 },
    });
    expect(moved.statusCode).toBe(201);
    const broke = await repay(customer.token, id);
    expect(broke.statusCode).toBe(400);
    expect(json(broke).message).toBe('Insufficient funds');
    const loan = json(await ctx.app.inject({ method: 'GET', url: '/api/loans', headers: bearer(customer.token) })).data[0];
    expect(loan).toMatchObject({ installmentsPaid: 0, principalRepaid: 0, outstanding: 10000 });
  });

  it('a customer who still owes on a loan cannot be closed, even with empty accounts', async () => {
    const { customer } = await approvedLoan();
    // The money was paid out: both accounts are at zero, the loan is not.
    await topUp(customer.userId, -1_000_000);
    expect((await me(customer.token)).account).toMatchObject({ savings: 0, checking: 0 });
    const refused = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) });
    expect(refused.statusCode).toBe(409);
    expect(json(refused).message).toBe('This customer still owes $10,000.00 on a loan: it must be repaid before the account can be closed.');
    const user = await ctx.database.db.selectFrom('users').select(['closed_at', 'email']).where('id', '=', customer.userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ closed_at: null, email: customer.email });
  });

  it('a loan paid to the last installment is repaid exactly, and then refuses more', async () => {
    const { customer, id } = await approvedLoan({ ...application, loanAmount: 2500, loanDuration: 12 });
    const schedule = repaymentScheduleCents(250_000, 999, 12, new Date().toISOString().slice(0, 10));
    const totalInterest = schedule.reduce((sum, row) => sum + row.interestCents, 0);
    await topUp(customer.userId, totalInterest);
    const receivable = await balanceOf('loans_receivable');
    let last;
    for (let index = 0; index < 12; index += 1) last = await repay(customer.token, id);
    expect(json(last!).message).toBe('Installment 12 of 12 paid: the loan is fully repaid.');
    expect(json(last!).data).toMatchObject({ installmentsPaid: 12, principalRepaid: 2500, outstanding: 0, nextInstallment: null });
    expect(json(last!).data.repaidAt).not.toBeNull();
    expect((await me(customer.token)).account.checking).toBe(0);
    expect(await balanceOf('loans_receivable')).toBe(receivable + 250_000);
    const more = await repay(customer.token, id);
    expect(more.statusCode).toBe(409);
    expect(json(more).message).toBe('This loan is fully repaid.');
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });
});
