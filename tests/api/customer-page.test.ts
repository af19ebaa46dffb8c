import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, createCustomer, createTestApp, json, mailbox, signIn, submitKyc, type TestContext, valueDate, staffCall } from '../support/app';

// The customer page as one place (issue 15): the timeline, staff notes (append-only, audited), and
// a verification status that always agrees with the KYC decision, whichever way it is set.
let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

const get = (url: string, token = admin) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
const addNote = (userId: string, body: unknown, token = admin) =>
  staffCall(ctx, { method: 'POST', url: `/api/user/admin/${userId}/notes`, headers: bearer(token), payload: { body } as object });

async function userUpdate(userId: string, changes: Record<string, unknown>) {
  const user = json(await get(`/api/user/admin/${userId}`)).data;
  return staffCall(ctx, {
    method: 'PUT',
    url: `/api/user/admin/${userId}`,
    headers: bearer(admin),
    payload: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone,
      // Sign-up asks for no state; the staff form requires one.
      location: { address: user.location.address || '1 Main Street', state: user.location.state || 'Oregon' },
      verificationStatus: user.verificationStatus,
      isBlocked: user.isBlocked,
      isAccountDisabled: user.isAccountDisabled,
      ...changes,
    },
  });
}

const submissions = (userId: string) => ctx.database.db.selectFrom('kyc_submissions').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
const statusOf = async (userId: string) =>
  (await ctx.database.db.selectFrom('users').select('verification_status').where('id', '=', userId).executeTakeFirstOrThrow()).verification_status;

describe('the timeline', () => {
  it('shows entries, sign-ins, identity documents and decisions, loans, card requests and notes, newest first, paged by key', async () => {
    const customer = await createCustomer(ctx, { firstName: 'Tess', lastName: 'Timeline' });
    const credit = await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: { amount: 120, transactionType: 'credit', date: valueDate(), description: 'Welcome bonus', reason: 'timeline test' },
    });
    expect(credit.statusCode).toBe(201);
    await submitKyc(ctx, customer.token);
    const [submission] = await submissions(customer.userId);
    const approved = await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${submission?.id}/approve`, headers: bearer(admin), payload: {} });
    expect(approved.statusCode).toBe(200);
    const loan = await ctx.app.inject({
      method: 'POST',
      url: '/api/loans',
      headers: bearer(customer.token),
      payload: { loanAmount: 5000, loanType: 'personal', loanDuration: 24, loanPurpose: 'Furniture' },
    });
    expect(loan.statusCode, loan.body).toBe(201);
    const rejected = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/loans/${json(loan).data._id}/reject`,
      headers: bearer(admin),
      payload: { reason: 'Income too low for now' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const card = await ctx.app.inject({ method: 'POST', url: '/api/cards/requests', headers: bearer(customer.token), payload: { cardType: 'debit' } });
    expect(card.statusCode, card.body).toBe(201);
    expect((await addNote(customer.userId, 'Called about the loan decision.\nExplained the income rule.')).statusCode).toBe(201);

    const first = json(await get(`/api/user/admin/${customer.userId}/timeline`)).data;
    const kinds = first.items.map((event: { kind: string }) => event.kind);
    // The welcome credit waited for a second staff member (ADR 023): its request is on the timeline too.
    expect(new Set(kinds)).toEqual(
      new Set(['note', 'card_requested', 'loan_decided', 'loan_applied', 'kyc_decided', 'kyc_submitted', 'approval', 'entry', 'sign_in']),
    );
    expect(first.items.find((event: { kind: string }) => event.kind === 'approval')).toMatchObject({
      title: 'Credit or debit (four eyes): approved',
      actor: 'admin@example.com',
      detail: expect.stringContaining('approved by admin2@example.com'),
    });
    expect(kinds[0]).toBe('note');
    const times = first.items.map((event: { at: string }) => event.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(first.items.find((event: { kind: string }) => event.kind === 'entry')).toMatchObject({
      title: 'Adjustment',
      detail: 'Welcome bonus',
      amountCents: 12000,
      entryId: json(credit).data.entryId,
    });
    expect(first.items.find((event: { kind: string }) => event.kind === 'loan_decided')).toMatchObject({
      title: 'Loan declined',
      actor: 'admin@example.com',
      detail: expect.stringContaining('Income too low for now'),
    });
    expect(first.items.find((event: { kind: string }) => event.kind === 'kyc_decided')).toMatchObject({
      title: 'Identity verified',
      actor: 'admin@example.com',
    });
    expect(first.items[0]).toMatchObject({
      title: 'Staff note',
      detail: 'Called about the loan decision.\nExplained the income rule.',
      actor: 'admin@example.com',
    });

    // Paged by key: pages of 2 walk the same events, without a gap or a repeat.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Array<{ kind: string; id: string }>; nextCursor: string | null } = json(
        await get(`/api/user/admin/${customer.userId}/timeline?pageSize=2${cursor ? `&before=${cursor}` : ''}`),
      ).data;
      walked.push(...page.items.map((event) => `${event.kind}:${event.id}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(first.items.map((event: { kind: string; id: string }) => `${event.kind}:${event.id}`));
  });

  it('refuses a bad position or page size, an unknown user, and callers who are not staff', async () => {
    const customer = await createCustomer(ctx);
    for (const query of ['before=nonsense', 'before=1.2.3.4', 'pageSize=0', 'pageSize=51']) {
      expect((await get(`/api/user/admin/${customer.userId}/timeline?${query}`)).statusCode, query).toBe(400);
    }
    expect((await get(`/api/user/admin/${randomUUID()}/timeline`)).statusCode).toBe(404);
    expect((await get(`/api/user/admin/${customer.userId}/timeline`, customer.token)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}/timeline` })).statusCode).toBe(401);
  });
});

describe('staff notes', () => {
  it('adds a note, audited without its text, and keeps notes append-only', async () => {
    const customer = await createCustomer(ctx);
    const response = await addNote(customer.userId, '  Asked for a paper statement.  ');
    expect(response.statusCode).toBe(201);
    const note = json(response);
    expect(note.message).toBe('Note added');
    expect(note.data).toMatchObject({ userId: customer.userId, body: 'Asked for a paper statement.', authorEmail: 'admin@example.com' });
    const records = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.note')
      .where('target_user_id', '=', customer.userId)
      .execute();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ actor_email: 'admin@example.com', target_type: 'customer_note', target_id: note.data.id });
    expect(records[0]?.after).toEqual({ noteId: note.data.id, length: 'Asked for a paper statement.'.length });
    // The database refuses to change or remove a note.
    await expect(sql`update customer_notes set body = 'rewritten' where id = ${Number(note.data.id)}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from customer_notes where id = ${Number(note.data.id)}`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
  });

  it('refuses an empty, too long or control-character note, an unknown user, a customer caller, and changes nothing', async () => {
    const customer = await createCustomer(ctx);
    for (const [body, message] of [
      ['', 'Write the note first'],
      ['   ', 'Write the note first'],
      ['x'.repeat(2001), 'Note must be at most 2000 characters'],
      ['bell\u0007', 'Note must not contain control characters'],
      [42, 'Write the note first'],
    ] as const) {
      const response = await addNote(customer.userId, body);
      expect(response.statusCode, String(body)).toBe(400);
      expect(json(response).message).toBe(message);
    }
    expect((await addNote(customer.userId, 'x'.repeat(2000))).statusCode).toBe(201);
    expect((await addNote(randomUUID(), 'hello')).statusCode).toBe(404);
    expect((await addNote(customer.userId, 'hello', customer.token)).statusCode).toBe(403);
    const notes = await ctx.database.db.selectFrom('customer_notes').select('body').where('user_id', '=', customer.userId).execute();
    expect(notes).toHaveLength(1);
  });

  it('erases a closed customer’s notes (the rows stay) and takes no new ones', async () => {
    const customer = await createCustomer(ctx);
    const credit = await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: { amount: 5, transactionType: 'credit', date: valueDate(), description: 'History', reason: 'so it closes' },
    });
    expect(credit.statusCode).toBe(201);
    const debit = await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': randomUUID() },
      payload: { amount: 5, transactionType: 'debit', date: valueDate(), description: 'Pay out', reason: 'so it closes' },
    });
    expect(debit.statusCode).toBe(201);
    expect((await addNote(customer.userId, 'Lives at 1 Secret Lane')).statusCode).toBe(201);
    const closed = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) });
    expect(json(closed).data.outcome).toBe('closed');
    const notes = await ctx.database.db.selectFrom('customer_notes').select(['body', 'erased_at']).where('user_id', '=', customer.userId).execute();
    expect(notes).toEqual([{ body: '', erased_at: expect.any(Date) }]);
    const timeline = json(await get(`/api/user/admin/${customer.userId}/timeline`)).data;
    expect(timeline.items.find((event: { kind: string }) => event.kind === 'note')).toMatchObject({ detail: '(erased when the account was closed)' });
    const refused = await addNote(customer.userId, 'After closing');
    expect(refused.statusCode).toBe(409);
  });
});

describe('verification status and KYC decision agree', () => {
  it('setting the status to verified on the user page approves the pending documents', async () => {
    const customer = await createCustomer(ctx);
    await submitKyc(ctx, customer.token);
    const response = await userUpdate(customer.userId, { verificationStatus: 'verified' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response).data.verificationStatus).toBe('verified');
    const [submission] = await submissions(customer.userId);
    expect(submission).toMatchObject({ status: 'verified', reason: null, reviewed_by: expect.any(String) });
    // One record of the decision (the state the form filled in is a detail change of its own, without the status).
    const records = await ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'after'])
      .where('target_user_id', '=', customer.userId)
      .orderBy('id')
      .execute();
    expect(records.map((record) => record.action)).toEqual(['kyc.approve', 'user.update']);
    expect(records[0]).toMatchObject({ target_id: submission?.id, after: { verificationStatus: 'verified', submissionStatus: 'verified' } });
    expect(records[1]?.after).not.toHaveProperty('verificationStatus');
    const mails = (await mailbox(ctx)).filter((mail) => mail.to === customer.email);
    expect(mails.filter((mail) => /your identity is verified/.test(mail.subject))).toHaveLength(1);
    expect(mails.find((mail) => /changes to your account/.test(mail.subject))?.text).not.toMatch(/verification status/);
    // The queue shows it decided: deciding it again is refused.
    expect((await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${submission?.id}/approve`, headers: bearer(admin), payload: {} })).statusCode).toBe(
      409,
    );
  });

  it('setting it to failed rejects them with a reason; deciding in the queue sets the status', async () => {
    const customer = await createCustomer(ctx);
    await submitKyc(ctx, customer.token);
    expect((await userUpdate(customer.userId, { verificationStatus: 'failed' })).statusCode).toBe(200);
    const [first] = await submissions(customer.userId);
    expect(first).toMatchObject({ status: 'failed', reason: 'Verification status set to failed by staff on the customer page' });
    expect(await statusOf(customer.userId)).toBe('failed');

    // The other way: the customer sends new documents, staff approve them in the queue.
    const token = await signIn(ctx, customer.email, customer.password);
    await submitKyc(ctx, token);
    expect(await statusOf(customer.userId)).toBe('pending');
    const second = (await submissions(customer.userId))[1];
    expect((await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${second?.id}/approve`, headers: bearer(admin), payload: {} })).statusCode).toBe(200);
    expect(await statusOf(customer.userId)).toBe('verified');
    expect(json(await get(`/api/user/admin/${customer.userId}`)).data.verificationStatus).toBe('verified');
  });

  it('refuses "pending" with no documents waiting and "awaiting" with documents waiting, changing nothing', async () => {
    const customer = await createCustomer(ctx);
    const pending = await userUpdate(customer.userId, { verificationStatus: 'pending', firstName: 'Changed' });
    expect(pending.statusCode).toBe(409);
    expect(json(pending).fields.verificationStatus).toMatch(/no identity documents waiting for review/);
    expect(await statusOf(customer.userId)).toBe('awaiting');
    expect(json(await get(`/api/user/admin/${customer.userId}`)).data.firstName).not.toBe('Changed');

    await submitKyc(ctx, customer.token);
    const awaiting = await userUpdate(customer.userId, { verificationStatus: 'awaiting' });
    expect(awaiting.statusCode).toBe(409);
    expect(json(awaiting).message).toMatch(/^Identity documents are waiting for review/);
    expect(await statusOf(customer.userId)).toBe('pending');
    expect((await submissions(customer.userId))[0]?.status).toBe('pending');
    // Other changes with the status left as it is still work.
    expect((await userUpdate(customer.userId, { firstName: 'Renamed' })).statusCode).toBe(200);
  });
});
