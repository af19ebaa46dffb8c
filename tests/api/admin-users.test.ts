import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { adminToken, bearer, createCustomer, createTestApp, json, signIn, type TestContext, mailbox, staffCall } from '../support/app';
import { file, jpegWithMetadata, multipart, pdf, png } from '../support/multipart';

let ctx: TestContext;
let admin: string;
let adminId: string;
let customer: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  adminId = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(admin) })).data._id;
  customer = await createCustomer(ctx, { firstName: 'Quentin', lastName: 'Zabriskie' });
});
afterAll(async () => ctx?.close());

const validUpdate = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Quentin',
  lastName: 'Zabriskie',
  email: customer.email,
  phone: '+12025550199',
  location: { address: '5 Elm Road', state: 'Ohio' },
  verificationStatus: 'verified',
  isBlocked: false,
  isAccountDisabled: false,
  ...overrides,
});

/** Moves money between the bank's cash account and a customer's account through the real ledger. */
async function moveMoney(userId: string, kind: 'checking' | 'savings', amountCents: number): Promise<void> {
  const db = ctx.database.db;
  const account = await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', '=', kind).executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    const cash = await bankAccountId(trx, 'bank_cash');
    await postEntries(trx, [
      {
        kind: amountCents > 0 ? 'opening' : 'adjustment',
        description: amountCents > 0 ? 'Test deposit' : 'Test pay-out',
        authorId: null,
        postings: [
          { accountId: account.id, amountCents },
          { accountId: cash, amountCents: -amountCents },
        ],
      },
    ]);
  });
}

describe('admin user calls: who may call them', () => {
  const calls = () => [
    { method: 'GET' as const, url: '/api/user/admin' },
    { method: 'GET' as const, url: `/api/user/admin/${customer.userId}` },
    { method: 'GET' as const, url: `/api/user/admin/email/${encodeURIComponent(customer.email)}` },
    { method: 'PUT' as const, url: `/api/user/admin/${customer.userId}`, payload: validUpdate() },
    { method: 'DELETE' as const, url: `/api/user/admin/${customer.userId}` },
  ];

  it('answers 401 without a session', async () => {
    for (const call of calls()) {
      const response = await ctx.app.inject(call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(json(response).code).toBe('unauthorized');
    }
  });

  it('answers 403 to a customer, and changes nothing', async () => {
    for (const call of calls()) {
      const response = await ctx.app.inject({ ...call, headers: bearer(customer.token) });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(json(response).message).toBe('Only bank staff can do this.');
    }
    const still = await ctx.database.db.selectFrom('users').select(['phone', 'closed_at']).where('id', '=', customer.userId).executeTakeFirstOrThrow();
    expect(still.phone).toBe('+12025550101');
    expect(still.closed_at).toBeNull();
  });
});

describe('GET /api/user/admin', () => {
  it('lists users newest first with a total and paginates', async () => {
    const first = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?pageSize=2', headers: bearer(admin) })).data;
    expect(first.page).toBe(1);
    expect(first.pageSize).toBe(2);
    const count = await ctx.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(first.total).toBe(Number(count.n));
    expect(first.items).toHaveLength(2);
    expect(first.items[0]._id).toBe(customer.userId);
    expect(first.items[0].accountNumber).toBe(customer.accountNumber);
    const second = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?pageSize=2&page=2', headers: bearer(admin) })).data;
    expect(second.items[0]._id).not.toBe(first.items[0]._id);
    expect(second.items[0]._id).not.toBe(first.items[1]._id);
    expect(JSON.stringify(first)).not.toContain('password');
  });

  it('finds a customer by account number, by email part, by full name and by a short prefix', async () => {
    for (const search of [customer.accountNumber, customer.accountNumber.slice(0, 6), customer.email.split('@')[0], 'quentin zabr', 'ZABRISKIE', 'Za']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/user/admin?search=${encodeURIComponent(search!)}`, headers: bearer(admin) });
      expect(response.statusCode).toBe(200);
      const ids = json(response).data.items.map((item: { _id: string }) => item._id);
      expect(ids, search).toContain(customer.userId);
    }
    const miss = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?search=nobody-like-this', headers: bearer(admin) })).data;
    expect(miss).toMatchObject({ items: [], total: 0 });
  });

  it('treats LIKE wildcards and tsquery operators in the search as plain text', async () => {
    for (const search of ['%%%', "!&|:*()'", 'quentin & !zabriskie']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/user/admin?search=${encodeURIComponent(search)}`, headers: bearer(admin) });
      expect(response.statusCode, search).toBe(200);
      // Punctuation separates words: the last is the words "quentin" and "zabriskie", both hers.
      const ids = json(response).data.items.map((item: { _id: string }) => item._id);
      if (search.startsWith('quentin')) expect(ids).toContain(customer.userId);
      else expect(json(response).data.total, search).toBe(0);
    }
  });

  it('matches whole words and the start of the last one, in any order and beyond ASCII', async () => {
    await sql`
      insert into users (email, password_hash, first_name, last_name, phone, address, state, created_at)
      values ('zoe.angstrom@example.com', '!test', 'Zoë', 'Ångström-Núñez', '+12025550100', '1 Test Road', 'Ohio', timestamptz '2020-01-01')`.execute(
      ctx.database.db,
    );
    const found = async (search: string) =>
      json(await ctx.app.inject({ method: 'GET', url: `/api/user/admin?search=${encodeURIComponent(search)}`, headers: bearer(admin) })).data.items.map(
        (item: { email: string }) => item.email,
      );
    for (const search of ['Zoë', 'zoë ångström', 'Ångström Zo', 'núñez', 'NÚÑEZ', 'angstrom@exa', 'zoe.angstrom@example.com']) {
      expect(await found(search), search).toContain('zoe.angstrom@example.com');
    }
    // Not the middle of a word, and every word must match one of hers.
    for (const search of ['ngström', 'zo ångström', 'Zoë Smith']) expect(await found(search), search).not.toContain('zoe.angstrom@example.com');
    // Gone again: the other tests' sort orders and counts do not include her.
    await sql`delete from users where email = 'zoe.angstrom@example.com'`.execute(ctx.database.db);
  });

  it('sorts by last name both ways', async () => {
    const asc = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?sort=lastName&order=asc&pageSize=100', headers: bearer(admin) })).data.items;
    const names = asc.map((item: { lastName: string }) => item.lastName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const desc = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?sort=lastName&order=desc&pageSize=100', headers: bearer(admin) })).data.items;
    expect(desc[0].lastName.toLowerCase()).toBe('zabriskie');
  });

  it('refuses bad query parameters with a clear message', async () => {
    const cases: Array<[string, string]> = [
      ['pageSize=0', 'pageSize must be at least 1'],
      ['pageSize=1000', 'pageSize must be at most 100'],
      ['page=abc', 'page must be a number'],
      ['sort=password_hash', 'sort must be one of createdAt, firstName, lastName, email'],
      ['order=sideways', 'order must be asc or desc'],
      [`search=${'x'.repeat(101)}`, 'Search must be at most 100 characters'],
      ['search=ab%00cd', 'Search must not contain control characters'],
      ['search=ab%1B%5B31mcd', 'Search must not contain control characters'],
    ];
    for (const [query, message] of cases) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/user/admin?${query}`, headers: bearer(admin) });
      expect(response.statusCode, query).toBe(400);
      expect(json(response).message).toBe(message);
    }
  });
});

describe('GET /api/user/admin/:id and /email/:email', () => {
  it('returns the spec user object with the ledger account', async () => {
    const byId = await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) });
    expect(byId.statusCode).toBe(200);
    expect(json(byId).data).toMatchObject({
      _id: customer.userId,
      email: customer.email,
      account: { number: customer.accountNumber, savings: 0, checking: 0 },
      closedAt: null,
      hasLedgerHistory: false,
    });
    const byEmail = await ctx.app.inject({
      method: 'GET',
      url: `/api/user/admin/email/${encodeURIComponent(customer.email.toUpperCase())}`,
      headers: bearer(admin),
    });
    expect(byEmail.statusCode).toBe(200);
    expect(json(byEmail).data._id).toBe(customer.userId);
  });

  it('answers 404 for a malformed or unknown id, 400 for a malformed email and 404 for an unknown one', async () => {
    // One rule for every path id: a malformed one names nothing, so it is not found like an unknown one.
    const badId = await ctx.app.inject({ method: 'GET', url: '/api/user/admin/not-a-uuid', headers: bearer(admin) });
    expect(badId.statusCode).toBe(404);
    expect(json(badId).code).toBe('not_found');
    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/user/admin/00000000-0000-4000-8000-000000000000', headers: bearer(admin) });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).message).toBe('User not found');
    const badEmail = await ctx.app.inject({ method: 'GET', url: '/api/user/admin/email/not-an-email', headers: bearer(admin) });
    expect(badEmail.statusCode).toBe(400);
    expect(json(badEmail).message).toBe('Please enter a valid email address');
    const unknownEmail = await ctx.app.inject({ method: 'GET', url: '/api/user/admin/email/nobody@example.com', headers: bearer(admin) });
    expect(unknownEmail.statusCode).toBe(404);
  });
});

describe('PUT /api/user/admin/:id', () => {
  it("says 'All fields are required' for a missing or empty field, and changes nothing", async () => {
    for (const body of [
      {},
      validUpdate({ firstName: '' }),
      validUpdate({ phone: '   ' }),
      validUpdate({ location: { address: 'x' } }),
      validUpdate({ location: undefined }),
      validUpdate({ isBlocked: undefined }),
    ]) {
      const response = await staffCall(ctx, { method: 'PUT', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin), payload: body });
      expect(response.statusCode).toBe(400);
      expect(json(response).message).toBe('All fields are required');
    }
    const row = await ctx.database.db.selectFrom('users').select('phone').where('id', '=', customer.userId).executeTakeFirstOrThrow();
    expect(row.phone).toBe('+12025550101');
  });

  it('refuses wrong types, bad email, bad status and too-long text', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [validUpdate({ email: 'nope' }), 'Please enter a valid email address'],
      [validUpdate({ verificationStatus: 'approved' }), 'Verification status must be one of awaiting, verified, pending, failed'],
      [validUpdate({ isBlocked: 'yes' }), 'Blocked must be true or false'],
      [validUpdate({ firstName: 'x'.repeat(81) }), 'First name must be at most 80 characters'],
      [validUpdate({ phone: 'call me' }), 'Please enter a valid phone number'],
      [validUpdate({ lastName: 'Zabriskie\u0000' }), 'Last name must not contain control characters'],
      [validUpdate({ location: { address: '5 Elm\nRoad', state: 'Ohio' } }), 'Address must not contain control characters'],
    ];
    for (const [body, message] of cases) {
      const response = await staffCall(ctx, { method: 'PUT', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin), payload: body });
      expect(response.statusCode).toBe(400);
      expect(json(response).message).toBe(message);
    }
  });

  it('refuses an email that another account uses', async () => {
    const response = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/user/admin/${customer.userId}`,
      headers: bearer(admin),
      payload: validUpdate({ email: 'alex.morgan@example.com' }),
    });
    expect(response.statusCode).toBe(409);
    expect(json(response).message).toBe('This email address is already used by another account.');
  });

  it('updates the details, audits before and after, and emails the customer', async () => {
    const response = await staffCall(ctx, { method: 'PUT', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin), payload: validUpdate() });
    expect(response.statusCode).toBe(200);
    expect(json(response).data).toMatchObject({ phone: '+12025550199', location: { address: '5 Elm Road', state: 'Ohio' }, verificationStatus: 'verified' });
    const entry = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_user_id', '=', customer.userId)
      .where('action', '=', 'user.update')
      .executeTakeFirstOrThrow();
    expect(entry.actor_id).toBe(adminId);
    expect(entry.before).toMatchObject({ phone: '+12025550101', verificationStatus: 'awaiting' });
    expect(entry.after).toMatchObject({ phone: '+12025550199', state: 'Ohio', verificationStatus: 'verified' });
    const mail = (await mailbox(ctx)).find((message) => message.to === customer.email && message.subject.includes('changes to your account'));
    expect(mail?.text).toContain('phone number');
  });

  it('blocks at once: the flag shows, the audit says user.block, the session still works', async () => {
    const response = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/user/admin/${customer.userId}`,
      headers: bearer(admin),
      payload: validUpdate({ isBlocked: true }),
    });
    expect(response.statusCode).toBe(200);
    expect(json(response).data.isBlocked).toBe(true);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) });
    expect(json(me).data.isBlocked).toBe(true);
    const actions = await ctx.database.db.selectFrom('audit_log').select('action').where('target_user_id', '=', customer.userId).execute();
    expect(actions.map((row) => row.action)).toContain('user.block');
    const unblock = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/user/admin/${customer.userId}`,
      headers: bearer(admin),
      payload: validUpdate({ isBlocked: false }),
    });
    expect(json(unblock).data.isBlocked).toBe(false);
  });

  it('disabling ends the customer sessions at once and stops sign-in', async () => {
    const other = await createCustomer(ctx);
    const update = { ...validUpdate({ email: other.email }), isAccountDisabled: true };
    const response = await staffCall(ctx, { method: 'PUT', url: `/api/user/admin/${other.userId}`, headers: bearer(admin), payload: update });
    expect(response.statusCode).toBe(200);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(other.token) });
    expect(me.statusCode).toBe(401);
    const open = await ctx.database.db.selectFrom('sessions').select('id').where('user_id', '=', other.userId).where('ended_at', 'is', null).execute();
    expect(open).toHaveLength(0);
    await expect(signIn(ctx, other.email, other.password)).rejects.toThrow(/disabled/);
    const mail = (await mailbox(ctx)).find((message) => message.to === other.email && message.text.includes('access is disabled'));
    expect(mail).toBeDefined();
  });

  it("never disables an admin: 'You cannot disable an admin account', and the database refuses it too", async () => {
    const me = json(await ctx.app.inject({ method: 'GET', url: `/api/user/admin/${adminId}`, headers: bearer(admin) })).data;
    const body = {
      firstName: me.firstName,
      lastName: me.lastName,
      email: me.email,
      phone: '+1 202 555 0100',
      location: { address: 'Head office', state: 'Delaware' },
      verificationStatus: 'verified',
      isBlocked: false,
      isAccountDisabled: true,
    };
    const response = await staffCall(ctx, { method: 'PUT', url: `/api/user/admin/${adminId}`, headers: bearer(admin), payload: body });
    expect(response.statusCode).toBe(400);
    expect(json(response).message).toBe('You cannot disable an admin account');
    const row = await ctx.database.db.selectFrom('users').select(['is_account_disabled', 'phone']).where('id', '=', adminId).executeTakeFirstOrThrow();
    expect(row).toEqual({ is_account_disabled: false, phone: '' });
    await expect(sql`update users set is_account_disabled = true where id = ${adminId}`.execute(ctx.database.db)).rejects.toThrow(/users_admin_never_disabled/);
    const fine = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/user/admin/${adminId}`,
      headers: bearer(admin),
      payload: { ...body, isAccountDisabled: false },
    });
    expect(fine.statusCode).toBe(200);
  });

  it('answers 404 for an unknown user and for a malformed id', async () => {
    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: '/api/user/admin/00000000-0000-4000-8000-000000000000',
      headers: bearer(admin),
      payload: validUpdate(),
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await ctx.app.inject({ method: 'PUT', url: '/api/user/admin/1', headers: bearer(admin), payload: validUpdate() });
    expect(bad.statusCode).toBe(404);
  });
});

describe('DELETE /api/user/admin/:id', () => {
  it('deletes a customer who has no ledger history', async () => {
    const fresh = await createCustomer(ctx);
    const response = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${fresh.userId}`, headers: bearer(admin) });
    expect(response.statusCode).toBe(200);
    expect(json(response).data.outcome).toBe('deleted');
    const gone = await ctx.database.db.selectFrom('users').select('id').where('id', '=', fresh.userId).executeTakeFirst();
    expect(gone).toBeUndefined();
    const accounts = await ctx.database.db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', fresh.userId).execute();
    expect(accounts).toHaveLength(0);
    const entry = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_user_id', '=', fresh.userId)
      .where('action', '=', 'user.delete')
      .executeTakeFirst();
    expect(entry?.actor_id).toBe(adminId);
    const again = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${fresh.userId}`, headers: bearer(admin) });
    expect(again.statusCode).toBe(404);
  });

  it('refuses to close a customer whose balances are not zero, then closes and anonymizes once they are', async () => {
    const saver = await createCustomer(ctx, { firstName: 'Sally', lastName: 'Saver' });
    await moveMoney(saver.userId, 'savings', 12_345);
    const refused = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${saver.userId}`, headers: bearer(admin) });
    expect(refused.statusCode).toBe(409);
    expect(json(refused).message).toBe('Balances must be zero before this account can be closed (savings $123.45). Move or pay out the money first.');
    const untouched = await ctx.database.db.selectFrom('users').select(['first_name', 'closed_at']).where('id', '=', saver.userId).executeTakeFirstOrThrow();
    expect(untouched).toEqual({ first_name: 'Sally', closed_at: null });

    await moveMoney(saver.userId, 'savings', -12_345);
    const accountIds = (await ctx.database.db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', saver.userId).execute()).map((row) => row.id);
    const postingsBefore = await ctx.database.db.selectFrom('postings').select('id').where('account_id', 'in', accountIds).execute();
    expect(postingsBefore).toHaveLength(2);

    const closed = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${saver.userId}`, headers: bearer(admin) });
    expect(closed.statusCode).toBe(200);
    expect(json(closed).data.outcome).toBe('closed');

    const row = await ctx.database.db.selectFrom('users').selectAll().where('id', '=', saver.userId).executeTakeFirstOrThrow();
    expect(row.closed_at).not.toBeNull();
    expect(row).toMatchObject({
      first_name: 'Closed',
      last_name: 'customer',
      phone: '',
      address: '',
      state: '',
      date_of_birth: null,
      ssn_tin: null,
      is_account_disabled: true,
    });
    expect(row.email).not.toContain('saver');
    expect(JSON.stringify(row)).not.toContain('Sally');
    // The entries stay, and the ledger still verifies end to end.
    const postingsAfter = await ctx.database.db.selectFrom('postings').select('id').where('account_id', 'in', accountIds).execute();
    expect(postingsAfter).toHaveLength(2);
    const verified = await verifyLedger(ctx.database.db);
    expect(verified.ok).toBe(true);
    // Sign-in stops and the old session is gone.
    await expect(signIn(ctx, saver.email, saver.password)).rejects.toThrow(/sign-in failed/);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(saver.token) });
    expect(me.statusCode).toBe(401);
    // The audit record holds no personal data.
    const entry = await ctx.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_user_id', '=', saver.userId)
      .where('action', '=', 'user.close')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(entry)).not.toContain('Sally');
    // A closed account is not edited or closed again.
    const edit = await staffCall(ctx, {
      method: 'PUT',
      url: `/api/user/admin/${saver.userId}`,
      headers: bearer(admin),
      payload: validUpdate({ email: 'sally@example.com' }),
    });
    expect(edit.statusCode).toBe(409);
    const twice = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${saver.userId}`, headers: bearer(admin) });
    expect(twice.statusCode).toBe(409);
    expect(json(twice).message).toBe('This account is already closed.');
  });

  it('erases identity documents (rows and files) when closing, and keeps the entries', async () => {
    const documented = await createCustomer(ctx);
    const body = multipart({
      passportImageFile: file('passport.jpg', 'image/jpeg', await jpegWithMetadata()),
      documentType: 'passport',
      documentFile: file('id.pdf', 'application/pdf', pdf()),
      proofOfAddressFile: file('bill.png', 'image/png', await png()),
      dateOfBirth: '1990-05-17',
    });
    const submitted = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/verification',
      headers: { ...bearer(documented.token), ...body.headers },
      payload: body.payload,
    });
    expect(submitted.statusCode).toBe(201);
    const stored = await ctx.database.db.selectFrom('stored_files').select('storage_name').where('owner_id', '=', documented.userId).execute();
    expect(stored).toHaveLength(3);
    const paths = stored.map((row) => path.join(ctx.config.dataDir, 'uploads', row.storage_name));
    expect(paths.every((file) => fs.existsSync(file))).toBe(true);
    await moveMoney(documented.userId, 'checking', 500);
    await moveMoney(documented.userId, 'checking', -500);

    const closed = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${documented.userId}`, headers: bearer(admin) });
    expect(json(closed).data.outcome).toBe('closed');
    expect(await ctx.database.db.selectFrom('stored_files').select('id').where('owner_id', '=', documented.userId).execute()).toHaveLength(0);
    expect(await ctx.database.db.selectFrom('kyc_submissions').select('id').where('user_id', '=', documented.userId).execute()).toHaveLength(0);
    expect(paths.some((file) => fs.existsSync(file))).toBe(false);
    const accounts = await ctx.database.db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', documented.userId).execute();
    expect(
      await ctx.database.db
        .selectFrom('postings')
        .select('id')
        .where(
          'account_id',
          'in',
          accounts.map((row) => row.id),
        )
        .execute(),
    ).toHaveLength(2);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('never deletes an admin or the signed-in staff member', async () => {
    const self = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${adminId}`, headers: bearer(admin) });
    expect(self.statusCode).toBe(409);
    expect(json(self).message).toBe('You cannot delete your own account.');
    const colleague = await ctx.database.db
      .insertInto('users')
      .values({
        email: 'colleague@example.com',
        password_hash: '!',
        first_name: 'Col',
        last_name: 'League',
        phone: '',
        address: '',
        state: '',
        is_admin: true,
        staff_role: 'admin',
        staff_status: 'active',
        is_email_confirmed: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${colleague.id}`, headers: bearer(admin) });
    expect(other.statusCode).toBe(409);
    expect(json(other).message).toBe('You cannot delete an admin account.');
    const bad = await ctx.app.inject({ method: 'DELETE', url: '/api/user/admin/xyz', headers: bearer(admin) });
    expect(bad.statusCode).toBe(404);
  });
});

describe('GET /api/user/admin at scale (ADR 027)', () => {
  it('counts a search exactly up to 1,000 matches, and beyond says the total is an estimate', async () => {
    // 1,200 customers called Estimella, older than everyone else so the other tests' pages do not change.
    await sql`
      insert into users (email, password_hash, first_name, last_name, phone, address, state, created_at)
      select 'estimella.' || i || '@example.com', '!test', 'Estimella', 'Number' || i, '+12025550100', '1 Test Road', 'Ohio', timestamptz '2020-01-01' + make_interval(secs => i)
      from generate_series(1, 1200) as i`.execute(ctx.database.db);
    const many = await ctx.app.inject({ method: 'GET', url: '/api/user/admin?search=estimella&pageSize=20', headers: bearer(admin) });
    expect(many.statusCode).toBe(200);
    const page = json(many).data;
    expect(page.totalEstimated).toBe(true);
    expect(page.total).toBeGreaterThan(1000);
    expect(page.items).toHaveLength(20);
    // Newest first: the last one inserted leads.
    expect(page.items[0].email).toBe('estimella.1200@example.com');
    for (const item of page.items) expect(item.firstName).toBe('Estimella');
    // The next page goes on down the same order, whole rows read for the ids the walk found.
    const next = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?search=estimella&pageSize=20&page=2', headers: bearer(admin) })).data;
    expect(next.items.map((item: { email: string }) => item.email)).toEqual(Array.from({ length: 20 }, (_, index) => `estimella.${1180 - index}@example.com`));
    expect(next.items[0]).toMatchObject({ firstName: 'Estimella', lastName: 'Number1180' });
    // A narrower search is counted exactly, and says nothing about estimates.
    const few = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?search=number119', headers: bearer(admin) })).data;
    expect(few.total).toBe(11);
    expect(few.totalEstimated).toBeUndefined();
    // Without a search the total stays the exact counter.
    const all = json(await ctx.app.inject({ method: 'GET', url: '/api/user/admin?pageSize=1', headers: bearer(admin) })).data;
    const count = await sql<{ n: number }>`select count(*)::int as n from users`.execute(ctx.database.db);
    expect(all.total).toBe(count.rows[0]?.n);
    expect(all.totalEstimated).toBeUndefined();
  });
});

describe('GET /api/user/admin: a broad one-word search (ADR 027)', () => {
  let broad: TestContext;
  let staff: string;
  beforeAll(async () => {
    // Its own bank: the word statistics are read once per process and database, and must see these.
    broad = await createTestApp();
    staff = await adminToken(broad);
    // 3,000 customers called Broadwell, a second apart, and 30 called Broadwood, the newest.
    await sql`
      insert into users (email, password_hash, first_name, last_name, phone, address, state, created_at)
      select 'broadwell.' || i || '@example.com', '!test', 'Casey', 'Broadwell', '+12025550100', '1 Test Road', 'Ohio', timestamptz '2020-01-01' + make_interval(secs => i)
      from generate_series(1, 3000) as i`.execute(broad.database.db);
    await sql`
      insert into users (email, password_hash, first_name, last_name, phone, address, state, created_at)
      select 'broadwood.' || i || '@example.com', '!test', 'Robin', 'Broadwood', '+12025550100', '1 Test Road', 'Ohio', timestamptz '2021-01-01' + make_interval(secs => i)
      from generate_series(1, 30) as i`.execute(broad.database.db);
    await sql`analyze users`.execute(broad.database.db);
  });
  afterAll(async () => broad?.close());
  const search = async (params: string) => {
    const response = await broad.app.inject({ method: 'GET', url: `/api/user/admin?${params}`, headers: bearer(staff) });
    expect(response.statusCode, response.body).toBe(200);
    return json(response).data as { items: Array<{ email: string; lastName: string }>; total: number; totalEstimated?: boolean };
  };

  it('walks the newest first without counting, and says its total is the statistics’ estimate', async () => {
    const first = await search('search=broadwell&pageSize=20');
    expect(first.items.map((item) => item.email)).toEqual(Array.from({ length: 20 }, (_, index) => `broadwell.${3000 - index}@example.com`));
    expect(first.totalEstimated).toBe(true);
    // ANALYZE read every row of so small a table: the estimate is the count.
    expect(first.total).toBeGreaterThanOrEqual(2950);
    expect(first.total).toBeLessThanOrEqual(3050);
    const second = await search('search=broadwell&pageSize=20&page=2');
    expect(second.items.map((item) => item.email)).toEqual(Array.from({ length: 20 }, (_, index) => `broadwell.${2980 - index}@example.com`));
    // Oldest first walks the same index the other way.
    const oldest = await search('search=Broadwell&pageSize=3&order=asc');
    expect(oldest.items.map((item) => item.email)).toEqual(['broadwell.1@example.com', 'broadwell.2@example.com', 'broadwell.3@example.com']);
  });

  it('counts exactly where the walk runs out, and past the end still answers the total', async () => {
    // 3,000 in pages of 7: the 429th holds the last 4, and then the total is known.
    const last = await search('search=broadwell&pageSize=7&page=429');
    expect(last.items.map((item) => item.email)).toEqual([
      'broadwell.4@example.com',
      'broadwell.3@example.com',
      'broadwell.2@example.com',
      'broadwell.1@example.com',
    ]);
    expect(last.total).toBe(3000);
    expect(last.totalEstimated).toBeUndefined();
    const past = await search('search=broadwell&pageSize=7&page=500');
    expect(past.items).toEqual([]);
    expect(past.total).toBeGreaterThan(1000);
  });

  it('takes a word’s start as the words it begins, and leaves narrower or other searches to the count', async () => {
    // "broadw" begins both names: the 30 Broadwoods are the newest.
    const start = await search('search=broadw&pageSize=40');
    expect(start.items.slice(0, 30).every((item) => item.lastName === 'Broadwood')).toBe(true);
    expect(start.items.slice(30).every((item) => item.lastName === 'Broadwell')).toBe(true);
    expect(start.totalEstimated).toBe(true);
    // Two words, or another sort, or a rare word: counted up to the limit as before.
    const two = await search('search=robin%20broadwood');
    expect(two).toMatchObject({ total: 30 });
    expect(two.totalEstimated).toBeUndefined();
    const rare = await search('search=broadwood');
    expect(rare).toMatchObject({ total: 30 });
    const byName = await search('search=broadwell&sort=lastName&pageSize=5');
    expect(byName.items).toHaveLength(5);
    expect(byName.totalEstimated).toBe(true);
  });
});
