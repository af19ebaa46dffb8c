import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBooks } from '../../src/server/anchors/verify';
import { audit } from '../../src/server/audit/audit';
import { personalHash } from '../../src/server/audit/chain';
import { sealAuditAll, sealAuditPending } from '../../src/server/audit/sealer';
import { verifyAuditChain } from '../../src/server/audit/verify';
import { createDatabase } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { migrations } from '../../src/server/db/migrations/index';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { adminToken, bearer, createCustomer, createTestApp, createTestDatabase, customerAccountIds, json, type TestContext, staffCall } from '../support/app';

// The audit trail as a hash chain (ADR 014): every record chained after commit, its personal part
// kept apart, hashed with a salt, and erasable when the customer is closed, without breaking the chain.

let ctx: TestContext;
let admin: string;
let staff: { id: string; email: string };
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  staff = await ctx.database.db.selectFrom('users').select(['id', 'email']).where('is_admin', '=', true).executeTakeFirstOrThrow();
});
afterAll(async () => ctx?.close());

async function asSuperuser<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const changeDetails = (customer: { userId: string; email: string }, firstName: string) =>
  staffCall(ctx, {
    method: 'PUT',
    url: `/api/user/admin/${customer.userId}`,
    headers: bearer(admin),
    payload: {
      firstName,
      lastName: 'Erasable',
      email: customer.email,
      phone: '+1 202 555 0142',
      location: { address: '42 Privacy Lane', state: 'Oregon' },
      verificationStatus: 'awaiting',
      isBlocked: false,
      isAccountDisabled: false,
    },
  });

describe('writing an audit record', () => {
  it('keeps its personal part apart, hashed with a salt, and chains it after commit', async () => {
    await audit(
      ctx.database.db,
      { user: staff, ip: '198.51.100.4' },
      { action: 'test.write', targetType: 'ledger', before: { a: 1 }, after: { b: 'x' }, reason: 'Why' },
    );
    const record = await ctx.database.db.selectFrom('audit_records').selectAll().where('action', '=', 'test.write').executeTakeFirstOrThrow();
    // Nothing personal in the chained row itself.
    expect(JSON.stringify(record)).not.toContain(staff.email);
    expect(JSON.stringify(record)).not.toContain('198.51.100.4');
    const personal = await ctx.database.db.selectFrom('audit_personal').selectAll().where('audit_id', '=', record.id).executeTakeFirstOrThrow();
    expect(JSON.parse(personal.data)).toEqual({ actorEmail: staff.email, ip: '198.51.100.4', before: { a: 1 }, after: { b: 'x' }, reason: 'Why' });
    expect(personal.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(record.personal_hash).toBe(personalHash(personal.salt, personal.data));
    // Readers see the old shape through the audit_log view.
    const view = await ctx.database.db.selectFrom('audit_log').selectAll().where('id', '=', String(record.id)).executeTakeFirstOrThrow();
    expect(view).toMatchObject({ actor_email: staff.email, ip: '198.51.100.4', before: { a: 1 }, after: { b: 'x' }, reason: 'Why', erased: false });

    // Waiting for the sealer, then chained.
    expect(await ctx.database.db.selectFrom('audit_unsealed').select('audit_id').where('audit_id', '=', record.id).executeTakeFirst()).toBeDefined();
    expect(await sealAuditAll(ctx.database.db)).toBeGreaterThan(0);
    const link = await ctx.database.db.selectFrom('audit_chain').selectAll().where('audit_id', '=', record.id).executeTakeFirstOrThrow();
    expect(link.hash).toMatch(/^[0-9a-f]{64}$/);
    const result = await verifyAuditChain(ctx.database.db);
    expect(result).toMatchObject({ ok: true, unchained: 0, erased: 0 });
    if (result.ok) expect(result.chained).toBe(result.records);
  });

  it('chains records written concurrently by several connections once each, in one gapless chain', async () => {
    const other = createDatabase(ctx.databaseUrl, { max: 4 });
    try {
      const writes = Array.from({ length: 40 }, (_, index) =>
        (index % 2 ? other.db : ctx.database.db).transaction().execute((trx) => audit(trx, { user: staff }, { action: 'test.concurrent', after: { index } })),
      );
      const sealing = (async () => {
        for (let round = 0; round < 10; round += 1) await Promise.all([sealAuditPending(ctx.database.db), sealAuditPending(other.db)]);
      })();
      await Promise.all([...writes, sealing]);
      await sealAuditAll(other.db);
      const chained = await sql<{ count: string }>`
        select count(*) from audit_chain c join audit_records r on r.id = c.audit_id where r.action = 'test.concurrent'`.execute(ctx.database.db);
      expect(Number(chained.rows[0]?.count)).toBe(40);
      expect(await verifyAuditChain(ctx.database.db)).toMatchObject({ ok: true, unchained: 0 });
    } finally {
      await other.close();
    }
  });

  it('is append-only: records, chain links and personal parts cannot be changed', async () => {
    await expect(sql`update audit_records set action = 'nothing'`.execute(ctx.database.db)).rejects.toThrow(/audit_records is append-only/);
    await expect(sql`delete from audit_records`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`update audit_chain set hash = 'x'`.execute(ctx.database.db)).rejects.toThrow(/audit_chain is append-only/);
    await expect(sql`delete from audit_chain`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`update audit_personal set data = '{}'`.execute(ctx.database.db)).rejects.toThrow(/audit_personal is append-only/);
    await expect(sql`truncate audit_personal`.execute(ctx.database.db)).rejects.toThrow(/append-only/);
    await expect(sql`update audit_log set reason = 'nothing'`.execute(ctx.database.db)).rejects.toThrow(/audit_log is append-only/);
  });
});

describe('closing a customer', () => {
  it("erases the personal part of their audit records; the chain still verifies and the back office shows 'erased'", async () => {
    const customer = await createCustomer(ctx, { firstName: 'Erin', lastName: 'Erasable' });
    expect((await changeDetails(customer, 'Erina')).statusCode).toBe(200);
    const records = () =>
      ctx.database.db
        .selectFrom('audit_log')
        .select(['id', 'action', 'before', 'after', 'actor_email', 'erased'])
        .where('target_user_id', '=', customer.userId)
        .orderBy('id')
        .execute();
    const before = await records();
    expect(before.map((row) => row.action)).toEqual(['user.update']);
    expect(JSON.stringify(before)).toContain('Erina');
    await sealAuditAll(ctx.database.db); // the update's record is on the chain before it is erased

    // Money moved once, so the customer is closed (not deleted): the ledger history stays.
    const { checking } = await customerAccountIds(ctx, customer.userId);
    const cash = await bankAccountId(ctx.database.db, 'bank_cash');
    for (const amountCents of [500, -500]) {
      await ctx.database.db.transaction().execute((trx) =>
        postEntries(trx, [
          {
            kind: 'adjustment',
            description: 'In and out',
            authorId: null,
            postings: [
              { accountId: cash, amountCents: -amountCents },
              { accountId: checking, amountCents },
            ],
          },
        ]),
      );
    }
    const closed = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${customer.userId}`, headers: bearer(admin) });
    expect(closed.statusCode).toBe(200);
    expect(json(closed).data.outcome).toBe('closed');

    const after = await records();
    // The closure waited for a second staff member (ADR 023): its request and approval are about the customer too.
    expect(after.map((row) => [row.action, row.erased])).toEqual([
      ['user.update', true],
      ['approval.request', true],
      ['approval.approve', true],
      ['user.close', false],
    ]);
    expect(after[0]).toMatchObject({ before: null, after: null, actor_email: null });
    expect(JSON.stringify(after)).not.toContain('Erina');
    expect(JSON.stringify(after)).not.toContain('Privacy Lane');
    const erasedId = Number(after[0]!.id);
    expect(await ctx.database.db.selectFrom('audit_personal').select('audit_id').where('audit_id', '=', erasedId).executeTakeFirst()).toBeUndefined();
    // The record and its hash stay on the chain.
    expect(await ctx.database.db.selectFrom('audit_records').select('personal_hash').where('id', '=', erasedId).executeTakeFirst()).toBeDefined();

    await sealAuditAll(ctx.database.db);
    const verified = await verifyAuditChain(ctx.database.db);
    expect(verified).toMatchObject({ ok: true, erased: 3 });
    const books = await verifyBooks(ctx.database.db, ctx.config);
    expect(books.lines).toEqual([expect.stringMatching(/audit records on the audit chain \(3 with personal data erased\); no anchors yet\.$/)]);

    // The back office's audit log: the record, who did it, and "erased" where its values were.
    const page = json(await ctx.app.inject({ method: 'GET', url: `/api/admin/audit?customer=${customer.userId}`, headers: bearer(admin) })).data;
    expect(page.items.map((item: { action: string; erased: boolean }) => [item.action, item.erased])).toEqual([
      ['user.close', false],
      ['approval.approve', true],
      ['approval.request', true],
      ['user.update', true],
    ]);
    expect(page.items[3]).toMatchObject({ before: null, after: null, reason: null, actorEmail: staff.email, targetName: 'Closed customer' });
  });

  it('a personal part removed behind the app for a customer who is still open is reported', async () => {
    const customer = await createCustomer(ctx);
    expect((await changeDetails(customer, 'Oscar')).statusCode).toBe(200);
    await sealAuditAll(ctx.database.db);
    const record = await ctx.database.db.selectFrom('audit_records').select('id').where('target_user_id', '=', customer.userId).executeTakeFirstOrThrow();
    const personal = await ctx.database.db.selectFrom('audit_personal').selectAll().where('audit_id', '=', record.id).executeTakeFirstOrThrow();

    // Edited: the hash no longer matches.
    await asSuperuser(async (client) => {
      await client.query('alter table audit_personal disable trigger user');
      await client.query(`update audit_personal set data = replace(data, 'Oscar', 'Oskar') where audit_id = $1`, [record.id]);
      await client.query('alter table audit_personal enable trigger user');
    });
    let result = await verifyAuditChain(ctx.database.db);
    expect(result).toMatchObject({
      ok: false,
      recordId: record.id,
      problem: expect.stringMatching(new RegExp(`^the personal part of audit record ${record.id} does not match its hash`)),
    });

    // Removed: an erasure nobody closed the customer for.
    await sql`delete from audit_personal where audit_id = ${record.id}`.execute(ctx.database.db);
    result = await verifyAuditChain(ctx.database.db);
    expect(result).toMatchObject({
      ok: false,
      recordId: record.id,
      problem: `the personal part of audit record ${record.id} is missing, but it concerns no closed customer`,
    });

    // Put back as it was: verifies again.
    await sql`insert into audit_personal (audit_id, salt, data) values (${record.id}, ${personal.salt}, ${personal.data})`.execute(ctx.database.db);
    expect(await verifyAuditChain(ctx.database.db)).toMatchObject({ ok: true });
  });
});

describe('the migration', () => {
  it('moves the records written before it into the chain, with their ids and personal parts', async () => {
    const { url } = await createTestDatabase();
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
    const names = Object.keys(migrations);
    const mine = names.indexOf('2026-11-24-40-audit-chain');
    expect(mine).toBeGreaterThan(0);
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const partial = await migrator.migrateTo(names[mine - 1]!);
      expect(partial.error).toBeUndefined();
      await sql`
        insert into audit_log (at, actor_id, actor_email, action, target_user_id, target_type, target_id, before, after, reason, ip) values
          ('2026-11-20T10:00:00.123456Z', null, 'old.admin@example.com', 'user.update', null, 'user', 'x', '{"firstName":"Old"}', '{"firstName":"New"}', 'Typo', '203.0.113.9'),
          ('2026-11-20T11:00:00Z', null, null, 'ledger.verify', null, 'ledger', null, null, '{"ok":true}', null, null)`.execute(db);
    } finally {
      await db.destroy();
    }
    const handle = createDatabase(url, { max: 2 });
    try {
      await migrateToLatest(handle.db);
      const rows = await handle.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
      expect(rows).toMatchObject([
        {
          action: 'user.update',
          actor_email: 'old.admin@example.com',
          before: { firstName: 'Old' },
          after: { firstName: 'New' },
          reason: 'Typo',
          ip: '203.0.113.9',
          erased: false,
        },
        { action: 'ledger.verify', actor_email: null, before: null, after: { ok: true }, erased: false },
      ]);
      expect(new Date(rows[0]!.at).toISOString()).toBe('2026-11-20T10:00:00.123Z');
      // Not chained yet: the first sealer round after the start chains them, in id order.
      expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true, chained: 0, unchained: 2 });
      expect(await sealAuditAll(handle.db)).toBe(2);
      const chain = await handle.db.selectFrom('audit_chain').select(['position', 'audit_id']).orderBy('position').execute();
      expect(chain.map((link) => Number(link.audit_id))).toEqual(rows.map((row) => Number(row.id)));
      expect(await verifyAuditChain(handle.db)).toMatchObject({ ok: true, chained: 2, unchained: 0 });
      // New records continue the ids.
      await audit(handle.db, null, { action: 'test.after_migration' });
      const next = await handle.db.selectFrom('audit_records').select('id').where('action', '=', 'test.after_migration').executeTakeFirstOrThrow();
      expect(Number(next.id)).toBe(Math.max(...rows.map((row) => Number(row.id))) + 1);
    } finally {
      await handle.close();
    }
  });
});
