import { sql, type Selectable } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  LOAN_PENDING_MAX,
  LOAN_PRODUCTS,
  LOAN_REPAID_MESSAGE,
  LOAN_SUCCESS_MESSAGE,
  type LoanDto,
  monthlyPaymentCents,
  repaymentScheduleCents,
  ZLoanApplication,
  ZLoanQueueQuery,
  ZLoanRejectRequest,
} from '../../shared/contracts/loans';
import { formatCents } from '../../shared/money';
import { audit } from '../audit/audit';
import { currentUser, requireAdmin, requireCustomer } from '../auth/sessions';
import type { DB } from '../db/database';
import type { LoansTable } from '../db/schema';
import { AppError, assert, parseInput } from '../http/errors';
import { perMinute } from '../http/rate-limit';
import { idempotent } from '../ledger/idempotency';
import { bankAccountId, postEntries } from '../ledger/posting';
import { plainMail } from '../mail/templates';

type LoanRow = Selectable<LoansTable>;
type CustomerColumns = { first_name: string; last_name: string; email: string; verification_status: string };

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** The schedule of an approved loan, in cents (null before approval). */
function scheduleOf(row: LoanRow) {
  return row.status === 'approved' && row.disbursed_at
    ? repaymentScheduleCents(row.amount_cents, row.annual_rate_bps, row.duration_months, new Date(row.disbursed_at).toISOString().slice(0, 10))
    : null;
}

export function toLoanDto(row: LoanRow, customer?: CustomerColumns): LoanDto {
  const lines = scheduleOf(row);
  const total = lines ? lines.reduce((sum, line) => sum + line.paymentCents, 0) : row.monthly_payment_cents * row.duration_months;
  const schedule = lines
    ? lines.map((line) => ({
        number: line.number,
        dueDate: line.dueDate,
        payment: line.paymentCents / 100,
        principal: line.principalCents / 100,
        interest: line.interestCents / 100,
        balance: line.balanceCents / 100,
      }))
    : null;
  return {
    _id: row.id,
    loanAmount: row.amount_cents / 100,
    loanType: row.loan_type,
    loanDuration: row.duration_months,
    loanPurpose: row.purpose,
    status: row.status,
    interestRate: row.annual_rate_bps / 100,
    monthlyPayment: row.monthly_payment_cents / 100,
    totalRepayment: total / 100,
    decisionReason: row.decision_reason,
    decidedAt: iso(row.decided_at),
    disbursedAt: iso(row.disbursed_at),
    createdAt: iso(row.created_at) ?? '',
    updatedAt: iso(row.updated_at) ?? '',
    schedule,
    installmentsPaid: row.installments_paid,
    principalRepaid: row.principal_repaid_cents / 100,
    interestPaid: row.interest_paid_cents / 100,
    outstanding: lines ? (row.amount_cents - row.principal_repaid_cents) / 100 : 0,
    nextInstallment: schedule?.[row.installments_paid] ?? null,
    repaidAt: iso(row.repaid_at),
    ...(customer
      ? {
          customer: {
            id: row.user_id,
            firstName: customer.first_name,
            lastName: customer.last_name,
            email: customer.email,
            verificationStatus: customer.verification_status,
          },
        }
      : {}),
  };
}

/** The customer's checking account: where a loan is paid out and where its installments come from. */
async function checkingAccountId(db: DB, userId: string): Promise<string> {
  const checking = await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', '=', 'checking').executeTakeFirst();
  assert(checking, 'every customer has a checking account');
  return checking.id;
}

function loanId(params: unknown): string {
  const parsed = z.object({ id: z.uuid() }).safeParse(params);
  if (!parsed.success) throw new AppError('not_found', 'Loan not found');
  return parsed.data.id;
}

/** The application's terms, priced at the product's indicative rate. */
function terms(input: z.output<typeof ZLoanApplication>) {
  const rate = LOAN_PRODUCTS[input.loanType].annualRateBps;
  return {
    loan_type: input.loanType,
    amount_cents: input.loanAmount,
    duration_months: input.loanDuration,
    purpose: input.loanPurpose,
    annual_rate_bps: rate,
    monthly_payment_cents: monthlyPaymentCents(input.loanAmount, rate, input.loanDuration),
  };
}

export async function loanRoutes(app: FastifyInstance): Promise<void> {
  const brand = () => ({ bankName: app.config.bankName, publicUrl: app.config.publicUrl });
  const mail = (request: FastifyRequest, to: string, subject: string, body: string) =>
    app.mailer.send(plainMail(brand(), to, subject, body)).catch((error: unknown) => request.log.error({ err: error }, 'loan mail failed'));
  const describe = (row: LoanRow) => `${LOAN_PRODUCTS[row.loan_type].label} of ${formatCents(row.amount_cents)} over ${row.duration_months} months`;

  app.get('/loans', { preHandler: requireCustomer }, async (request) => {
    const user = currentUser(request);
    const rows = await app.db.selectFrom('loans').selectAll().where('user_id', '=', user.id).orderBy('created_at', 'desc').limit(100).execute();
    return { data: rows.map((row) => toLoanDto(row)) };
  });

  app.post('/loans', { preHandler: requireCustomer, ...perMinute(10) }, async (request, reply) => {
    const user = currentUser(request);
    const input = parseInput(ZLoanApplication, request.body);
    const row = await app.db.transaction().execute(async (trx) => {
      // One customer's applications are serialized so the open-application limit holds.
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().executeTakeFirstOrThrow();
      const { open } = await trx
        .selectFrom('loans')
        .select((eb) => eb.fn.countAll<string>().as('open'))
        .where('user_id', '=', user.id)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      if (Number(open) >= LOAN_PENDING_MAX)
        throw new AppError('conflict', `You already have ${LOAN_PENDING_MAX} applications under review. Please wait for a decision or withdraw one.`);
      return trx
        .insertInto('loans')
        .values({ user_id: user.id, ...terms(input) })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    await mail(
      request,
      user.email,
      'we received your loan application',
      `Hello ${user.first_name},\n\nWe received your application for a ${describe(row).toLowerCase()}, at an indicative ${row.annual_rate_bps / 100}% a year (about ${formatCents(row.monthly_payment_cents)} a month). ` +
        `Decisions usually take 1-3 business days for personal loans and 5-10 for business loans. We will email you the result.`,
    );
    return reply.status(201).send({ data: toLoanDto(row), message: LOAN_SUCCESS_MESSAGE });
  });

  app.put('/loans/:id', { preHandler: requireCustomer, ...perMinute(20) }, async (request) => {
    const user = currentUser(request);
    const id = loanId(request.params);
    const input = parseInput(ZLoanApplication, request.body);
    const row = await app.db.transaction().execute(async (trx) => {
      const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).where('user_id', '=', user.id).forUpdate().executeTakeFirst();
      if (!loan) throw new AppError('not_found', 'Loan not found');
      if (loan.status !== 'pending') throw new AppError('conflict', 'Only an application under review can be changed.');
      return trx
        .updateTable('loans')
        .set({ ...terms(input), updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return { data: toLoanDto(row), message: 'Loan application updated' };
  });

  app.delete('/loans/:id', { preHandler: requireCustomer }, async (request) => {
    const user = currentUser(request);
    const id = loanId(request.params);
    const row = await app.db.transaction().execute(async (trx) => {
      const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).where('user_id', '=', user.id).forUpdate().executeTakeFirst();
      if (!loan) throw new AppError('not_found', 'Loan not found');
      if (loan.status !== 'pending') throw new AppError('conflict', 'Only an application under review can be withdrawn.');
      return trx
        .updateTable('loans')
        .set({ status: 'withdrawn', updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return { data: toLoanDto(row), message: 'Loan application withdrawn' };
  });

  // The customer pays the next installment of an approved loan from checking: one entry moves the
  // principal part back to loans receivable and the interest part to interest income.
  app.post('/loans/:id/repayments', { preHandler: requireCustomer, ...perMinute(20) }, async (request, reply) => {
    const user = currentUser(request);
    const id = loanId(request.params);
    return idempotent(app.db, request, reply, user.id, async (save) =>
      app.db.transaction().execute(async (trx) => {
        const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).where('user_id', '=', user.id).forUpdate().executeTakeFirst();
        if (!loan) throw new AppError('not_found', 'Loan not found');
        if (loan.status !== 'approved') throw new AppError('conflict', 'Only an approved loan can be repaid.');
        const lines = scheduleOf(loan);
        assert(lines, 'an approved loan has a schedule');
        const line = lines[loan.installments_paid];
        if (!line) throw new AppError('conflict', LOAN_REPAID_MESSAGE);
        const checking = await checkingAccountId(trx, user.id);
        const label = LOAN_PRODUCTS[loan.loan_type].label;
        const installment = `${label} installment ${line.number} of ${lines.length}`;
        const customerName = `${user.first_name} ${user.last_name}`;
        const [posted] = await postEntries(trx, [
          {
            kind: 'loan',
            description: installment,
            authorId: user.id,
            details: { loanId: loan.id, installment: line.number, principalCents: line.principalCents, interestCents: line.interestCents },
            postings: [
              { accountId: checking, amountCents: -line.paymentCents, memo: installment, counterparty: app.config.bankName },
              {
                accountId: await bankAccountId(trx, 'loans_receivable'),
                amountCents: line.principalCents,
                memo: `${installment}: principal`,
                counterparty: customerName,
              },
              ...(line.interestCents > 0
                ? [
                    {
                      accountId: await bankAccountId(trx, 'interest_income'),
                      amountCents: line.interestCents,
                      memo: `${installment}: interest`,
                      counterparty: customerName,
                    },
                  ]
                : []),
            ],
          },
        ]);
        assert(posted, 'the installment was posted');
        const last = line.number === lines.length;
        const updated = await trx
          .updateTable('loans')
          .set({
            installments_paid: loan.installments_paid + 1,
            principal_repaid_cents: loan.principal_repaid_cents + line.principalCents,
            interest_paid_cents: loan.interest_paid_cents + line.interestCents,
            repaid_at: last ? sql`now()` : null,
            updated_at: sql`now()`,
          })
          .where('id', '=', loan.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        assert(!last || updated.principal_repaid_cents === updated.amount_cents, 'the last installment repays exactly what was lent');
        const body = {
          data: toLoanDto(updated),
          message: last
            ? `Installment ${line.number} of ${lines.length} paid: the loan is fully repaid.`
            : `Installment ${line.number} of ${lines.length} paid.`,
        };
        await save(trx, { status: 201, body }, posted.id);
        return { status: 201, body };
      }),
    );
  });

  // Staff: the applications, and the decision. Approval disburses the loan as a ledger entry.
  app.get('/admin/loans', { preHandler: requireAdmin }, async (request) => {
    const query = parseInput(ZLoanQueueQuery, request.query);
    let rows = app.db
      .selectFrom('loans')
      .innerJoin('users', 'users.id', 'loans.user_id')
      .selectAll('loans')
      .select(['users.first_name', 'users.last_name', 'users.email', 'users.verification_status']);
    let count = app.db.selectFrom('loans').select((eb) => eb.fn.countAll<string>().as('total'));
    if (query.status !== 'all') {
      rows = rows.where('loans.status', '=', query.status);
      count = count.where('status', '=', query.status);
    }
    const items = await rows
      .orderBy('loans.created_at', query.status === 'pending' ? 'asc' : 'desc')
      .orderBy('loans.id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute();
    const total = Number((await count.executeTakeFirstOrThrow()).total);
    return { data: { items: items.map((row) => toLoanDto(row, row)), page: query.page, pageSize: query.pageSize, total } };
  });

  app.post('/admin/loans/:id/approve', { preHandler: requireAdmin }, async (request: FastifyRequest, reply: FastifyReply) => {
    const id = loanId(request.params);
    const admin = currentUser(request);
    let notify: { email: string; text: string } | null = null;
    const answer = await idempotent(app.db, request, reply, admin.id, async (save) =>
      app.db.transaction().execute(async (trx) => {
        const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
        if (!loan) throw new AppError('not_found', 'Loan not found');
        if (loan.status !== 'pending') throw new AppError('conflict', `This application is already ${loan.status}.`);
        const customer = await trx.selectFrom('users').selectAll().where('id', '=', loan.user_id).executeTakeFirstOrThrow();
        if (customer.closed_at) throw new AppError('conflict', "The customer's account is closed.");
        if (customer.verification_status !== 'verified')
          throw new AppError('conflict', "The customer's identity is not verified yet: review their documents first.");
        const checking = await checkingAccountId(trx, customer.id);
        const receivable = await bankAccountId(trx, 'loans_receivable');
        const label = LOAN_PRODUCTS[loan.loan_type].label;
        const [posted] = await postEntries(trx, [
          {
            kind: 'loan',
            description: `${label} disbursement`,
            authorId: admin.id,
            details: { loanId: loan.id, loanType: loan.loan_type, durationMonths: loan.duration_months, annualRateBps: loan.annual_rate_bps },
            postings: [
              {
                accountId: receivable,
                amountCents: -loan.amount_cents,
                memo: `${label} to ${customer.first_name} ${customer.last_name}`,
                counterparty: `${customer.first_name} ${customer.last_name}`,
              },
              { accountId: checking, amountCents: loan.amount_cents, memo: `${label} disbursement`, counterparty: app.config.bankName },
            ],
          },
        ]);
        assert(posted, 'the disbursement was posted');
        const updated = await trx
          .updateTable('loans')
          .set({
            status: 'approved',
            decided_by: admin.id,
            decided_at: sql`now()`,
            disbursement_entry_id: posted.id,
            disbursed_at: posted.bookedAt,
            updated_at: sql`now()`,
          })
          .where('id', '=', loan.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(trx, request, {
          action: 'loan.approve',
          targetUserId: customer.id,
          targetType: 'loan',
          targetId: loan.id,
          before: { status: loan.status },
          after: { status: 'approved', disbursementEntryId: posted.id, amountCents: loan.amount_cents },
        });
        const body = {
          data: toLoanDto(updated, customer),
          message: `Loan approved: ${formatCents(loan.amount_cents)} paid into the customer's checking account.`,
        };
        await save(trx, { status: 200, body }, posted.id);
        notify = {
          email: customer.email,
          text:
            `Hello ${customer.first_name},\n\nYour ${describe(loan).toLowerCase()} is approved. ${formatCents(loan.amount_cents)} has been paid into your checking account. ` +
            `Your monthly payment is ${formatCents(loan.monthly_payment_cents)} at ${loan.annual_rate_bps / 100}% a year; the full schedule is on your Loans page.`,
        };
        return { status: 200, body };
      }),
    );
    const message = notify as { email: string; text: string } | null;
    if (message) await mail(request, message.email, 'your loan is approved', message.text);
    return answer;
  });

  app.post('/admin/loans/:id/reject', { preHandler: requireAdmin }, async (request) => {
    const id = loanId(request.params);
    const { reason } = parseInput(ZLoanRejectRequest, request.body);
    const admin = currentUser(request);
    const { row, customer } = await app.db.transaction().execute(async (trx) => {
      const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!loan) throw new AppError('not_found', 'Loan not found');
      if (loan.status !== 'pending') throw new AppError('conflict', `This application is already ${loan.status}.`);
      const updated = await trx
        .updateTable('loans')
        .set({ status: 'rejected', decision_reason: reason, decided_by: admin.id, decided_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', loan.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, request, {
        action: 'loan.reject',
        targetUserId: loan.user_id,
        targetType: 'loan',
        targetId: loan.id,
        before: { status: loan.status },
        after: { status: 'rejected' },
        reason,
      });
      const owner = await trx
        .selectFrom('users')
        .select(['email', 'first_name', 'last_name', 'verification_status'])
        .where('id', '=', loan.user_id)
        .executeTakeFirstOrThrow();
      return { row: updated, customer: owner };
    });
    await mail(
      request,
      customer.email,
      'your loan application',
      `Hello ${customer.first_name},\n\nWe are sorry: we cannot offer you the ${describe(row).toLowerCase()} you applied for.\n\nReason: ${reason}`,
    );
    return { data: toLoanDto(row, customer), message: 'Loan application rejected. The customer has been emailed the reason.' };
  });
}
