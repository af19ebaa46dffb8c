import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVALS_EXPIRE_TASK } from '../../src/server/approvals/service';
import { SAME_REQUEST_WAITING_MESSAGE } from '../../src/server/approvals/request';
import { cronItems, taskList } from '../../src/server/jobs/registry';
import {
  adminToken,
  approveAsSecondStaff,
  bearer,
  createCustomer,
  createTestApp,
  json,
  secondAdminToken,
  staffCall,
  type TestContext,
  valueDate,
} from '../support/app';

// Four eyes on money and on drastic actions (issue 15, ADR 023).

let ctx: TestContext;
let admin: string;
let admin2: string;
let keySeq = 0;
const key = () => `four-eyes-${Date.now()}-${keySeq++}`;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  admin2 = await secondAdminToken(ctx);
});
afterAll(async () => ctx?.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>, token = admin) =>
  ctx.app.inject({ method, url, headers: { ...bearer(token), 'idempotency-key': key() }, ...(payload ? { payload } : {}) });
const me = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data;
const credit = (amount: number, extra: Record<string, unknown> = {}) => ({
  amount,
  transactionType: 'credit',
  date: valueDate(0),
  description: 'Goodwill credit',
  reason: 'Complaint #7 resolved',
  ...extra,
});
const approvals = async (status: string, token = admin) =>
  json(await ctx.app.inject({ method: 'GET', url: `/api/admin/approvals?status=${status}&pageSize=100`, headers: bearer(token) })).data.items as Array<
    Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- loosely typed JSON
  >;
const entriesByApproval = async (approvalId: string) =>
  ctx.database.db
    .selectFrom('journal_entries')
    .select('id')
    .where(({ eb, ref }) => eb(ref('details', '->>').key('approvalId' as never), '=', approvalId))
    .execute();

describe('a staff credit waits for a second staff member', () => {
  it('answers 202 pending, moves nothing, and posts exactly what was asked once approved', async () => {
    const customer = await createCustomer(ctx);
    const requested = await call('POST', `/api/transaction/admin/${customer.userId}`, credit(125.5));
    expect(requested.statusCode).toBe(202);
    expect(json(requested)).toEqual({
      data: { approvalId: expect.any(String), status: 'pending' },
      message: 'Credit requested - awaiting approval by a second staff member',
    });
    const approvalId = json(requested).data.approvalId as string;
    expect((await me(customer.token)).account.checking).toBe(0);

    const pending = (await approvals('pending')).find((item) => item.id === approvalId);
    expect(pending).toMatchObject({
      kind: 'staff_entry',
      requestedBy: { email: 'admin@example.com' },
      customer: { id: customer.userId, email: customer.email },
      summary: 'Credit $125.50 to the checking account',
      payload: { amount: 125.5, transactionType: 'credit', account: 'checking', description: 'Goodwill credit', reason: 'Complaint #7 resolved' },
      status: 'pending',
      decidedBy: null,
      decidedAt: null,
      reason: null,
    });
    expect(Object.keys(pending!)).toEqual(
      expect.arrayContaining(['id', 'kind', 'requestedBy', 'requestedAt', 'customer', 'summary', 'payload', 'status', 'decidedBy', 'decidedAt', 'reason']),
    );
    const badge = json(await ctx.app.inject({ method: 'GET', url: '/api/admin/approvals/count', headers: bearer(admin2) })).data.pending;
    expect(badge).toBeGreaterThanOrEqual(1);

    const approved = await approveAsSecondStaff(ctx, approvalId);
    expect(approved.statusCode).toBe(200);
    expect(json(approved).data).toMatchObject({ id: approvalId, status: 'approved', decidedBy: { email: 'admin2@example.com' } });
    // The approver is told it was approved and what that did; the change's own answer is the outcome's.
    expect(json(approved).message).toBe('Approved: the credit was posted');
    expect(json(approved).data.outcome).toMatchObject({
      status: 201,
      message: 'Transaction added successfully',
      data: { amount: 125.5, transactionType: 'credit' },
    });
    expect((await me(customer.token)).account.checking).toBe(125.5);
    expect(await entriesByApproval(approvalId)).toHaveLength(1);

    // The entry's page names its approval; the customer's timeline shows the request and its outcome.
    const entryId = json(approved).data.outcome.data.entryId as string;
    const entry = json(await ctx.app.inject({ method: 'GET', url: `/api/admin/journal/${entryId}`, headers: bearer(admin2) })).data;
    expect(entry.approval).toMatchObject({
      id: approvalId,
      status: 'approved',
      requestedBy: { email: 'admin@example.com' },
      decidedBy: { email: 'admin2@example.com' },
    });
    expect(entry.authorEmail).toBe('admin@example.com');
    const timeline = json(await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}/timeline`, headers: bearer(admin) })).data.items;
    expect(timeline.find((event: { kind: string }) => event.kind === 'approval')).toMatchObject({
      title: 'Credit or debit (four eyes): approved',
      detail: expect.stringContaining('Credit $125.50 to the checking account · approved by admin2@example.com'),
    });

    // The entry is the requester's; the approval is audited with its approver.
    const actions = await ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('target_user_id', '=', customer.userId)
      .orderBy('id')
      .execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: 'approval.request', actor_email: 'admin@example.com' },
        { action: 'approval.approve', actor_email: 'admin2@example.com' },
        { action: 'transaction.create', actor_email: 'admin@example.com' },
      ]),
    );
    // Decided: a second approval, a rejection and a cancel are all 409.
    expect((await call('POST', `/api/admin/approvals/${approvalId}/approve`, undefined, admin2)).statusCode).toBe(409);
    const again = await call('POST', `/api/admin/approvals/${approvalId}/reject`, { reason: 'Too late' }, admin2);
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toBe('This request is already approved.');
    expect((await call('POST', `/api/admin/approvals/${approvalId}/cancel`)).statusCode).toBe(409);
    expect((await me(customer.token)).account.checking).toBe(125.5);
  });

  it('refuses the requester approving their own request (403), and nothing moves', async () => {
    const customer = await createCustomer(ctx);
    const requested = await call('POST', `/api/transaction/admin/${customer.userId}`, credit(10));
    const approvalId = json(requested).data.approvalId as string;
    const self = await call('POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(self.statusCode).toBe(403);
    expect(json(self).message).toBe('You asked for this change: a second staff member must approve it.');
    const selfReject = await call('POST', `/api/admin/approvals/${approvalId}/reject`, { reason: 'Changed my mind' });
    expect(selfReject.statusCode).toBe(403);
    expect((await me(customer.token)).account.checking).toBe(0);
    expect((await approvals('pending')).find((item) => item.id === approvalId)?.status).toBe('pending');
    // A customer cannot reach the queue at all.
    expect((await call('POST', `/api/admin/approvals/${approvalId}/approve`, undefined, customer.token)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/approvals', headers: bearer(customer.token) })).statusCode).toBe(403);
  });

  it('refuses the same request while it waits (409), even asked at once; another customer, or once decided, is a new request', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const answers = await Promise.all(Array.from({ length: 4 }, () => call('POST', `/api/transaction/admin/${customer.userId}`, credit(33))));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409, 409, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(json(refused!).message).toBe(SAME_REQUEST_WAITING_MESSAGE);
    expect((await approvals('pending')).filter((item) => item.customer?.id === customer.userId)).toHaveLength(1);
    // The same ask about another customer, or a different amount, is its own request.
    expect((await call('POST', `/api/transaction/admin/${other.userId}`, credit(33))).statusCode).toBe(202);
    expect((await call('POST', `/api/transaction/admin/${customer.userId}`, credit(34))).statusCode).toBe(202);
    // Once the first is decided, the same ask may be made again.
    const first = answers.find((answer) => answer.statusCode === 202);
    expect((await call('POST', `/api/admin/approvals/${json(first!).data.approvalId}/approve`, undefined, admin2)).statusCode).toBe(200);
    expect((await call('POST', `/api/transaction/admin/${customer.userId}`, credit(33))).statusCode).toBe(202);
  });

  it('two approvers clicking at once post once', async () => {
    const customer = await createCustomer(ctx);
    const requested = await call('POST', `/api/transaction/admin/${customer.userId}`, credit(40));
    const approvalId = json(requested).data.approvalId as string;
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('POST', `/api/admin/approvals/${approvalId}/approve`, undefined, admin2)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await me(customer.token)).account.checking).toBe(40);
    expect(await entriesByApproval(approvalId)).toHaveLength(1);
  });

  it('a rejection needs a reason and records it; nothing moves', async () => {
    const customer = await createCustomer(ctx);
    const approvalId = json(await call('POST', `/api/transaction/admin/${customer.userId}`, credit(10))).data.approvalId as string;
    const noReason = await call('POST', `/api/admin/approvals/${approvalId}/reject`, {}, admin2);
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason).message).toMatch(/reason is required/i);
    const rejected = await call('POST', `/api/admin/approvals/${approvalId}/reject`, { reason: 'No complaint on file' }, admin2);
    expect(rejected.statusCode).toBe(200);
    expect(json(rejected).data).toMatchObject({ status: 'rejected', reason: 'No complaint on file', decidedBy: { email: 'admin2@example.com' } });
    expect((await approvals('rejected')).map((item) => item.id)).toContain(approvalId);
    expect((await me(customer.token)).account.checking).toBe(0);
  });

  it('only the requester may cancel', async () => {
    const customer = await createCustomer(ctx);
    const approvalId = json(await call('POST', `/api/transaction/admin/${customer.userId}`, credit(10))).data.approvalId as string;
    const byOther = await call('POST', `/api/admin/approvals/${approvalId}/cancel`, undefined, admin2);
    expect(byOther.statusCode).toBe(403);
    expect(json(byOther).message).toBe('Only the staff member who asked for this change can cancel it.');
    const cancelled = await call('POST', `/api/admin/approvals/${approvalId}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(json(cancelled).data).toMatchObject({ status: 'cancelled', decidedBy: { email: 'admin@example.com' } });
    expect((await approveAsSecondStaff(ctx, approvalId)).statusCode).toBe(409);
    expect((await me(customer.token)).account.checking).toBe(0);
  });

  it('an unknown or malformed id is 404; a bad status filter is 400', async () => {
    expect((await call('POST', '/api/admin/approvals/00000000-0000-7000-8000-000000000000/approve', undefined, admin2)).statusCode).toBe(404);
    expect((await call('POST', '/api/admin/approvals/nope/approve', undefined, admin2)).statusCode).toBe(404);
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/admin/approvals?status=maybe', headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
  });
});

describe('approvals that can no longer be carried out', () => {
  it('a debit the account cannot cover marks the request failed with the reason', async () => {
    const customer = await createCustomer(ctx);
    const approvalId = json(await call('POST', `/api/transaction/admin/${customer.userId}`, credit(75, { transactionType: 'debit' }))).data.approvalId;
    const approved = await approveAsSecondStaff(ctx, approvalId);
    expect(approved.statusCode).toBe(400);
    expect(json(approved).message).toBe('Insufficient funds');
    const failed = (await approvals('failed')).find((item) => item.id === approvalId);
    expect(failed).toMatchObject({ status: 'failed', reason: 'Insufficient funds', decidedBy: { email: 'admin2@example.com' } });
    expect(await entriesByApproval(approvalId)).toHaveLength(0);
  });

  it('a balance correction whose account moved since the request is refused (409) and must be asked again', async () => {
    const customer = await createCustomer(ctx);
    await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: credit(100),
    });
    const number = (await me(customer.token)).account.number;
    const requested = await call('PUT', `/api/user/admin/account/${customer.userId}`, { number, savings: 0, checking: 50, reason: 'Duplicate credit' });
    expect(requested.statusCode).toBe(202);
    expect(json(requested).message).toBe('Balance correction requested - awaiting approval by a second staff member');
    const approvalId = json(requested).data.approvalId;
    // The customer moves money before the approval.
    const moved = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(customer.token), 'idempotency-key': key() },
      payload: { from: 'checking', to: 'savings', amount: 20 },
    });
    expect(moved.statusCode).toBe(201);
    const approved = await approveAsSecondStaff(ctx, approvalId);
    expect(approved.statusCode).toBe(409);
    expect(json(approved).message).toMatch(/moved since this correction was asked for/);
    expect((await approvals('failed')).find((item) => item.id === approvalId)?.reason).toMatch(/Ask for the correction again/);
    expect((await me(customer.token)).account).toMatchObject({ checking: 80, savings: 20 });

    // Asked again against the balances as they are now, it goes through.
    const asked = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/user/admin/account/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: { number, savings: 0, checking: 50, reason: 'Duplicate credit' },
    });
    expect(asked.statusCode).toBe(200);
    expect(json(asked).message).toBe('Account balance successfully');
    expect((await me(customer.token)).account).toMatchObject({ checking: 50, savings: 0 });
  });

  it('requests expire after 7 days (read as expired at once, marked by the sweep job)', async () => {
    const customer = await createCustomer(ctx);
    const approvalId = json(await call('POST', `/api/transaction/admin/${customer.userId}`, credit(5))).data.approvalId;
    expect(cronItems().map((item) => item.task)).toContain(APPROVALS_EXPIRE_TASK);
    const row = () =>
      ctx.database.db.selectFrom('approvals').select(['status', 'requested_at', 'expires_at']).where('id', '=', approvalId).executeTakeFirstOrThrow();
    const asked = await row();
    expect(asked.expires_at.getTime() - asked.requested_at.getTime()).toBe(7 * 86_400_000);
    // Made 7 days and a second ago (sessions live on the real clock, so the request moves back instead).
    const shift = 7 * 86_400_000 + 1000;
    await ctx.database.db
      .updateTable('approvals')
      .set({ requested_at: new Date(asked.requested_at.getTime() - shift), expires_at: new Date(asked.expires_at.getTime() - shift) })
      .where('id', '=', approvalId)
      .execute();
    expect((await ctx.database.db.selectFrom('approvals').select('status').where('id', '=', approvalId).executeTakeFirstOrThrow()).status).toBe('pending');
    const stale = await approveAsSecondStaff(ctx, approvalId);
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toBe('This request is already expired.');
    await taskList(ctx.context)[APPROVALS_EXPIRE_TASK]!({}, {} as never);
    expect((await row()).status).toBe('expired');
    expect((await approvals('expired')).map((item) => item.id)).toContain(approvalId);
    expect((await me(customer.token)).account.checking).toBe(0);
  });
});

describe('drastic actions', () => {
  it('blocking takes effect at once; lifting it waits for a second staff member', async () => {
    const customer = await createCustomer(ctx);
    const user = json(await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) })).data;
    const edit = (isBlocked: boolean) => ({
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone,
      location: { address: '5 Elm Road', state: 'Ohio' },
      verificationStatus: user.verificationStatus,
      isBlocked,
      isAccountDisabled: false,
    });
    const blocked = await call('PUT', `/api/user/admin/${customer.userId}`, edit(true));
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(json(blocked).data.isBlocked).toBe(true);
    const lift = await call('PUT', `/api/user/admin/${customer.userId}`, edit(false));
    expect(lift.statusCode).toBe(202);
    expect(json(lift).message).toBe('Lifting the block requested - awaiting approval by a second staff member');
    expect((await me(customer.token)).isBlocked).toBe(true);
    const approved = await approveAsSecondStaff(ctx, json(lift).data.approvalId);
    expect(approved.statusCode).toBe(200);
    expect((await me(customer.token)).isBlocked).toBe(false);

    // Blocked again, then lifted in an edit that changes the phone too: the phone is changed now, and the message says only the lift waits.
    expect((await call('PUT', `/api/user/admin/${customer.userId}`, edit(true))).statusCode).toBe(200);
    const phoned = await call('PUT', `/api/user/admin/${customer.userId}`, { ...edit(false), phone: '+1 202 555 0142' });
    expect(phoned.statusCode).toBe(202);
    expect(json(phoned).message).toBe('User updated, except lifting the block - awaiting approval by a second staff member');
    const after = json(await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) })).data;
    expect({ phone: after.phone, isBlocked: after.isBlocked }).toEqual({ phone: '+12025550142', isBlocked: true });
  });

  it('closing a customer with history waits; approved, it closes', async () => {
    const customer = await createCustomer(ctx);
    await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: credit(10),
    });
    // Preconditions are checked when it is asked for: money still on the account refuses at once.
    const early = await call('DELETE', `/api/user/admin/${customer.userId}`);
    expect(early.statusCode).toBe(409);
    await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: credit(10, { transactionType: 'debit' }),
    });
    const requested = await call('DELETE', `/api/user/admin/${customer.userId}`);
    expect(requested.statusCode).toBe(202);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) })).json().data.closedAt).toBeNull();
    const approved = await approveAsSecondStaff(ctx, json(requested).data.approvalId);
    expect(approved.statusCode).toBe(200);
    expect(json(approved).data.outcome).toMatchObject({ data: { outcome: 'closed' } });
  });

  it('a reversal waits, and the approval posts it', async () => {
    const customer = await createCustomer(ctx);
    const posted = await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: credit(30),
    });
    const entryId = json(posted).data.entryId;
    const requested = await call('DELETE', `/api/transaction/admin/${entryId}`, { reason: 'Posted twice' });
    expect(requested.statusCode).toBe(202);
    expect(json(requested).message).toBe('Reversal requested - awaiting approval by a second staff member');
    expect((await me(customer.token)).account.checking).toBe(30);
    const approved = await approveAsSecondStaff(ctx, json(requested).data.approvalId);
    expect(approved.statusCode).toBe(200);
    expect((await me(customer.token)).account.checking).toBe(0);
  });
});

describe('FOUR_EYES=off (a bank with a single staff member)', () => {
  it('makes staff changes at once', async () => {
    const single = await createTestApp({ env: { FOUR_EYES: 'off' } });
    try {
      const token = await adminToken(single);
      const customer = await createCustomer(single);
      const response = await single.app.inject({
        method: 'POST',
        url: `/api/transaction/admin/${customer.userId}`,
        headers: { ...bearer(token), 'idempotency-key': key() },
        payload: credit(12),
      });
      expect(response.statusCode).toBe(201);
      expect(json(response).message).toBe('Transaction added successfully');
      const count = await single.database.db
        .selectFrom('approvals')
        .select(({ fn }) => fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    } finally {
      await single.close();
    }
  });
});
