import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronItems, taskList } from '../../src/server/jobs/registry';
import { sealAll } from '../../src/server/ledger/sealer';
import { verifyLedger } from '../../src/server/ledger/verify';
import { CLOSE_DAYS_TASK, closeEndedDays } from '../../src/server/reports/service';
import { adminToken, bearer, createCustomer, createTestApp, json, lastCode, signIn, type TestContext, staffCall, staffEntry } from '../support/app';

// End of day (issue 15) over the demo data plus a simulated day of traffic, on an injectable clock,
// in a bank whose calendar is America/New_York. The simulated day is 1 November 2026, when clocks
// go back: a 25-hour bank day, from 04:00 UTC to 05:00 UTC the next morning.

const ZONE = 'America/New_York';
const DAY = '2026-11-01';
const DAY_STARTS = '2026-11-01T04:00:00.000Z';
const DAY_ENDS = '2026-11-02T05:00:00.000Z';

let current = new Date('2026-10-31T16:00:00Z');
const clock = { now: () => new Date(current.getTime()) };
let ctx: TestContext;
let admin: string;

/** Moves the clock; sessions idle out over hours, so staff sign in again. */
async function at(instant: string) {
  current = new Date(instant);
  admin = await adminToken(ctx);
}

const get = (url: string, token = admin) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (url: string, payload: Record<string, unknown>, token = admin) =>
  staffCall(ctx, { method: 'POST', url, headers: { ...bearer(token), 'idempotency-key': randomUUID() }, payload });

async function liveBalances(): Promise<Map<string, number>> {
  const rows = await ctx.database.db.selectFrom('ledger_accounts').select(['id', 'balance']).execute();
  return new Map(rows.map((row) => [row.id, row.balance]));
}

/** The running balance of the account's last posting booked before an instant (by the order entries were applied). */
async function runningBalanceBefore(accountId: string, instant: string): Promise<number> {
  const row = await ctx.database.db
    .selectFrom('postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select('p.balance_after')
    .where('p.account_id', '=', accountId)
    .where('e.booked_at', '<', new Date(instant))
    .orderBy('p.entry_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.balance_after ?? 0;
}

/** Accounts are opened with PostgreSQL's now(), which the simulated clock does not reach: date them by the clock. */
async function openedAtClock() {
  const now = clock.now().toISOString();
  await sql`update ledger_accounts set created_at = ${now}::timestamptz where created_at > ${now}::timestamptz`.execute(ctx.database.db);
}

beforeAll(async () => {
  // The demo data is seeded on 31 October (its opening balances are that day's entries).
  ctx = await createTestApp({ clock, env: { BANK_TIMEZONE: ZONE } });
  admin = await adminToken(ctx);
  await openedAtClock();
});
afterAll(async () => ctx?.close());

let endOfDay: Map<string, number>;
let customer: Awaited<ReturnType<typeof createCustomer>>;

describe('a simulated day of traffic', () => {
  it('posts transfers, staff entries, a reversal and a loan on the bank day, across the clock change', async () => {
    const jamieId = (await ctx.database.db.selectFrom('users').select('id').where('email', '=', 'jamie.lee@example.com').executeTakeFirstOrThrow()).id;

    // 01:30 twice: once in daylight time (05:30 UTC), once in standard time (06:30 UTC).
    for (const instant of ['2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z']) {
      current = new Date(instant);
      const alexNow = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
      const moved = await post('/api/transaction/internal-transfer', { from: 'savings', to: 'checking', amount: 25 }, alexNow);
      expect(moved.statusCode, moved.body).toBe(201);
    }

    await at('2026-11-01T13:00:00Z');
    // A name beyond Latin-1, which the trial balance's PDF prints as it is.
    customer = await createCustomer(ctx, { firstName: 'Łukasz', lastName: 'Ševčík' });
    await openedAtClock();
    await staffEntry(ctx, customer.userId, 'credit', 500, { date: DAY });
    const own = await post('/api/transaction/internal-transfer', { from: 'checking', to: 'savings', amount: 100 }, customer.token);
    expect(own.statusCode, own.body).toBe(201);

    // A payment from a demo customer to the new one, with its emailed code.
    current = new Date('2026-11-01T14:00:00Z');
    const alexToken = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
    const transfer = { amount: 50, accountType: 'checking', accountNumber: customer.accountNumber, to: 'New Customer', description: 'Welcome' };
    expect((await post('/api/transaction/transfer', transfer, alexToken)).statusCode).toBe(200);
    const paid = await post('/api/transaction/transfer', { ...transfer, paymentPin: await lastCode(ctx, 'alex.morgan@example.com') }, alexToken);
    expect(paid.statusCode, paid.body).toBe(201);

    // A back-valued staff debit (value date the day before) and its reversal: booking time counts, not the value date.
    await at('2026-11-01T15:00:00Z');
    const debit = await staffEntry(ctx, jamieId, 'debit', 20, { date: '2026-10-31' });
    await at('2026-11-01T16:00:00Z');
    const reversed = await staffCall(ctx, {
      method: 'DELETE',
      url: `/api/transaction/admin/${debit}`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: { reason: 'posted in error' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);

    // A loan: applied for and approved, disbursed through the ledger.
    await at('2026-11-01T17:00:00Z');
    await ctx.database.db.updateTable('users').set({ verification_status: 'verified' }).where('id', '=', customer.userId).execute();
    const customerToken = await signIn(ctx, customer.email, customer.password);
    const applied = await ctx.app.inject({
      method: 'POST',
      url: '/api/loans',
      headers: bearer(customerToken),
      payload: { loanAmount: 3000, loanType: 'personal', loanDuration: 12, loanPurpose: 'A used car' },
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const approved = await post(`/api/admin/loans/${json(applied).data._id}/approve`, { loanAmount: 3000, loanType: 'personal', loanDuration: 12 });
    expect(approved.statusCode, approved.body).toBe(200);

    // The last minutes of the day, then the balances as the day ends.
    await at('2026-11-02T04:59:00Z');
    await staffEntry(ctx, customer.userId, 'credit', 1.5, { date: DAY, account: 'savings' });
    endOfDay = await liveBalances();

    // The next bank day has begun: this entry is not part of 1 November.
    current = new Date('2026-11-02T05:00:00Z');
    admin = await adminToken(ctx);
    await staffEntry(ctx, customer.userId, 'credit', 7, { date: '2026-11-02' });
  });
});

describe('the end-of-day job', () => {
  it('is registered, every 15 minutes, and closes nothing before a day has ended (with its grace)', async () => {
    expect(cronItems().map((item) => item.task)).toContain(CLOSE_DAYS_TASK);
    // 05:04 UTC: 1 November ended 4 minutes ago, still within the grace; 31 October can be closed.
    current = new Date('2026-11-02T05:04:00Z');
    expect(await closeEndedDays(ctx.context)).toEqual(['2026-10-31']);
    expect(await closeEndedDays(ctx.context)).toEqual([]);
  });

  it('answers an account’s balance at a past date from the postings before the day is closed', async () => {
    await at('2026-11-02T05:05:00Z');
    const accounts = await ctx.database.db.selectFrom('ledger_accounts').select('id').execute();
    for (const { id } of accounts) {
      const response = await get(`/api/admin/accounts/${id}/balance?date=${DAY}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(json(response).data).toEqual({ accountId: id, date: DAY, endsAt: DAY_ENDS, timeZone: ZONE, balanceCents: endOfDay.get(id) });
    }
  });

  it('stores a trial balance that sums to zero and equals the live balances at the end of the day', async () => {
    current = new Date('2026-11-02T05:06:00Z');
    // Run as the job runner does (the registry's task), twice at once: each day is closed once.
    const task = taskList(ctx.context)[CLOSE_DAYS_TASK];
    expect(task).toBeDefined();
    const [first, second] = await Promise.all([closeEndedDays(ctx.context), closeEndedDays(ctx.context)]);
    expect([...first, ...second]).toEqual([DAY]);

    const response = await get(`/api/admin/reports/trial-balance?date=${DAY}&pageSize=500`);
    expect(response.statusCode, response.body).toBe(200);
    const report = json(response).data;
    expect(report).toMatchObject({ date: DAY, timeZone: ZONE, startsAt: DAY_STARTS, endsAt: DAY_ENDS });
    expect(new Date(report.endsAt).getTime() - new Date(report.startsAt).getTime()).toBe(25 * 3_600_000);

    // Every account that moved on the day, and only those: the day's postings by booking time.
    const moved = await ctx.database.db
      .selectFrom('postings as p')
      .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
      .select('p.account_id')
      .distinct()
      .where('e.booked_at', '>=', new Date(DAY_STARTS))
      .where('e.booked_at', '<', new Date(DAY_ENDS))
      .execute();
    const lines = report.lines as Array<{ accountId: string; openingCents: number; debitsCents: number; creditsCents: number; closingCents: number }>;
    expect(lines.map((line) => line.accountId).sort()).toEqual(moved.map((row) => row.account_id).sort());
    expect(report.accountsMoved).toBe(lines.length);
    expect(report.total).toBe(lines.length);
    const entries = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('booked_at', '>=', new Date(DAY_STARTS))
      .where('booked_at', '<', new Date(DAY_ENDS))
      .executeTakeFirstOrThrow();
    expect(report.entries).toBe(Number(entries.count));
    expect(report.entries).toBeGreaterThanOrEqual(9);

    // Each closing balance is the account's live balance as the day ended; each line adds up.
    for (const line of lines) {
      expect(line.closingCents, line.accountId).toBe(endOfDay.get(line.accountId));
      expect(line.openingCents - line.debitsCents + line.creditsCents).toBe(line.closingCents);
    }
    // Debits equal credits; with the accounts that did not move, opening and closing each total zero.
    const sum = (pick: (line: (typeof lines)[number]) => number) => lines.reduce((total, line) => total + pick(line), 0);
    expect(report.totals).toEqual({
      openingCents: sum((line) => line.openingCents),
      debitsCents: sum((line) => line.debitsCents),
      creditsCents: sum((line) => line.creditsCents),
      closingCents: sum((line) => line.closingCents),
    });
    expect(report.totals.debitsCents).toBe(report.totals.creditsCents);
    expect(report.totals.debitsCents).toBeGreaterThan(0);
    expect(report.totals.openingCents + report.unchanged.balanceCents).toBe(0);
    expect(report.totals.closingCents + report.unchanged.balanceCents).toBe(0);
    const movedIds = new Set(lines.map((line) => line.accountId));
    const unchanged = [...endOfDay].filter(([id]) => !movedIds.has(id));
    expect(report.unchanged.accounts).toBe(unchanged.length);
    expect(report.unchanged.balanceCents).toBe(unchanged.reduce((total, [, balance]) => total + balance, 0));

    // The ledger itself still verifies.
    await sealAll(ctx.database.db);
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('answers the same balances at a past date from the stored days, each the running balance of the last posting before it', async () => {
    const accounts = await ctx.database.db.selectFrom('ledger_accounts').select('id').execute();
    for (const { id } of accounts) {
      const end = json(await get(`/api/admin/accounts/${id}/balance?date=${DAY}`)).data.balanceCents;
      expect(end, id).toBe(endOfDay.get(id));
      expect(end).toBe(await runningBalanceBefore(id, DAY_ENDS));
      const dayBefore = json(await get(`/api/admin/accounts/${id}/balance?date=2026-10-31`)).data.balanceCents;
      expect(dayBefore).toBe(await runningBalanceBefore(id, DAY_STARTS));
      // Before the bank's first entry nothing was booked.
      expect(json(await get(`/api/admin/accounts/${id}/balance?date=2026-10-30`)).data.balanceCents).toBe(0);
    }
    // The new customer's account: the back-valued entry of the next day is not in 1 November's balance.
    const checking = await ctx.database.db
      .selectFrom('ledger_accounts')
      .select(['id', 'balance'])
      .where('owner_id', '=', customer.userId)
      .where('kind', '=', 'checking')
      .executeTakeFirstOrThrow();
    const end = json(await get(`/api/admin/accounts/${checking.id}/balance?date=${DAY}`)).data.balanceCents;
    expect(checking.balance - end).toBe(700);
  });

  it('refuses a day that has not ended, a malformed date, an unknown account, and callers who are not staff', async () => {
    const { id } = await ctx.database.db.selectFrom('ledger_accounts').select('id').where('kind', '=', 'bank_cash').executeTakeFirstOrThrow();
    const today = await get(`/api/admin/accounts/${id}/balance?date=2026-11-02`);
    expect(today.statusCode).toBe(400);
    expect(json(today).message).toBe(`Choose a day that has ended: before 2026-11-02 (${ZONE}).`);
    expect((await get(`/api/admin/accounts/${id}/balance?date=2026-11-31`)).statusCode).toBe(400);
    expect((await get(`/api/admin/accounts/${id}/balance`)).statusCode).toBe(400);
    expect((await get(`/api/admin/accounts/${randomUUID()}/balance?date=${DAY}`)).statusCode).toBe(404);
    expect((await get(`/api/admin/reports/trial-balance?date=2026-11-02`)).statusCode).toBe(404);
    expect(json(await get(`/api/admin/reports/trial-balance?date=2026-11-02`)).message).toMatch(/^There is no trial balance for 2026-11-02 yet/);
    expect((await get(`/api/admin/reports/trial-balance?date=yesterday`)).statusCode).toBe(400);
    expect((await get(`/api/admin/reports/trial-balance?date=${DAY}&pageSize=501`)).statusCode).toBe(400);
    expect((await get(`/api/admin/reports/trial-balance.csv?date=2026-13-01`)).statusCode).toBe(400);
    const customerToken = await signIn(ctx, customer.email, customer.password);
    for (const url of [
      `/api/admin/reports/trial-balance?date=${DAY}`,
      `/api/admin/reports/trial-balance.csv?date=${DAY}`,
      `/api/admin/accounts/${id}/balance?date=${DAY}`,
    ]) {
      expect((await get(url, customerToken)).statusCode, url).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('pages through the report in its order: page N is the lines after the first N-1 pages, however deep (ADR 027)', async () => {
    const all = json(await get(`/api/admin/reports/trial-balance?date=${DAY}&pageSize=500`)).data.lines as Array<{
      accountId: string;
      ownerId: string | null;
      number: string | null;
    }>;
    expect(all.length).toBeGreaterThanOrEqual(4);
    // The report's order: the bank's own accounts first, then customers' accounts by number.
    const bankCount = all.filter((line) => line.ownerId === null).length;
    expect(all.slice(0, bankCount).every((line) => line.ownerId === null)).toBe(true);
    const numbers = all.slice(bankCount).map((line) => line.number ?? '');
    expect(numbers).toEqual([...numbers].sort());
    // Every page of 3 is the next 3 of those lines, the last one short; past the end, none.
    const pages = Math.ceil(all.length / 3);
    for (let page = 1; page <= pages + 1; page += 1) {
      const response = await get(`/api/admin/reports/trial-balance?date=${DAY}&pageSize=3&page=${page}`);
      expect(response.statusCode, response.body).toBe(200);
      const body = json(response).data;
      expect(body).toMatchObject({ page, pageSize: 3, total: all.length });
      expect(body.lines.map((line: { accountId: string }) => line.accountId)).toEqual(all.slice((page - 1) * 3, page * 3).map((line) => line.accountId));
    }
  });

  it('exports the day as CSV and PDF with the same figures', async () => {
    const report = json(await get(`/api/admin/reports/trial-balance?date=${DAY}&pageSize=500`)).data;
    const csv = await get(`/api/admin/reports/trial-balance.csv?date=${DAY}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="trial-balance-${DAY}.csv"`);
    const rows = csv.body.trim().split('\n');
    expect(rows[0]).toBe('date,account,account_number,kind,opening,debits,credits,closing');
    expect(rows).toHaveLength(report.lines.length + 3);
    const decimal = (cents: number) => (cents / 100).toFixed(2);
    for (const [index, line] of (report.lines as Array<Record<string, number | string | null>>).entries()) {
      const cells = rows[index + 1]?.split(',') ?? [];
      expect(cells.slice(-4)).toEqual([line.openingCents, line.debitsCents, line.creditsCents, line.closingCents].map((cents) => decimal(Number(cents))));
      expect(cells[2]).toBe(line.number ?? '');
    }
    expect(rows.at(-1)).toBe(`${DAY},Total,,,0.00,${decimal(report.totals.debitsCents)},${decimal(report.totals.creditsCents)},0.00`);

    const pdf = await get(`/api/admin/reports/trial-balance.pdf?date=${DAY}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf.rawPayload }).toString();
    expect(text).toContain(`trial balance for ${DAY}`);
    expect(text).toContain('Operations adjustments');
    expect(text).toContain('Łukasz Ševčík - ');
    expect(text).toMatch(/Total\s+\$0\.00/);
  });

  it('catches up every day it missed after downtime, in order, once', async () => {
    // Three days with no job running: the next run closes them all (the first with one entry, then empty days).
    await at('2026-11-05T05:10:00Z');
    expect(await closeEndedDays(ctx.context)).toEqual(['2026-11-02', '2026-11-03', '2026-11-04']);
    expect(await closeEndedDays(ctx.context)).toEqual([]);
    const quiet = json(await get('/api/admin/reports/trial-balance?date=2026-11-03')).data;
    expect(quiet).toMatchObject({ accountsMoved: 0, entries: 0, lines: [], totals: { openingCents: 0, debitsCents: 0, creditsCents: 0, closingCents: 0 } });
    const next = json(await get('/api/admin/reports/trial-balance?date=2026-11-02')).data;
    expect(next.entries).toBe(1);
    expect(next.totals.debitsCents).toBe(700);
    expect(json(await get('/api/admin/reports/days')).data).toEqual({ first: '2026-10-31', last: '2026-11-04', timeZone: ZONE });
    // Stored days are append-only.
    await expect(ctx.database.db.deleteFrom('trial_balances').where('day', '=', '2026-11-03').execute()).rejects.toThrow(/append-only/);
  });

  it("dates an entry booked late in the evening by the bank's day, not by UTC's", async () => {
    // 22:30 in New York on 5 November is 03:30 UTC on the 6th: the line is the 5th's, as the statements count it.
    await at('2026-11-06T03:30:00Z');
    const alex = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
    const moved = await post('/api/transaction/internal-transfer', { from: 'checking', to: 'savings', amount: 5 }, alex);
    expect(moved.statusCode, moved.body).toBe(201);
    expect(json(moved).data.date).toBe('2026-11-05');
  });
});
