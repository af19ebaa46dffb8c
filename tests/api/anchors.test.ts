import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorMessage } from '../../src/server/anchors/format';
import { runDailyAnchor, writeAnchor } from '../../src/server/anchors/service';
import { verifyBooks } from '../../src/server/anchors/verify';
import { audit } from '../../src/server/audit/audit';
import { auditRecordHash } from '../../src/server/audit/chain';
import { loadChainedRecords, sealAuditAll } from '../../src/server/audit/sealer';
import { entryHash, GENESIS_HASH } from '../../src/server/ledger/chain';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { sealAll } from '../../src/server/ledger/sealer';
import { loadHashedEntries } from '../../src/server/ledger/written';
import { verifySignature } from '../../src/server/signing/keys';
import { findSigningKey } from '../../src/server/signing/repository';
import { adminToken, bearer, createCustomer, createTestApp, drainJobs, json, type TestContext } from '../support/app';

// Anchors (ADR 014): the signed heads of the ledger chain and the audit chain, one JSON line each in
// ANCHOR_FILE, and `npm run ledger:verify` holding both chains against every line. The tamper tests
// are what a database superuser could do: disable the append-only triggers, rewrite history,
// recompute every later hash so each chain is consistent again, and enable the triggers.

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-anchors-'));
let fileCount = 0;
const newAnchorFile = () => path.join(directory, `anchors-${(fileCount += 1)}.jsonl`);

async function app(options: { anchorFile?: string; anchorEmail?: string; databaseUrl?: string; dataDir?: string } = {}): Promise<TestContext> {
  return createTestApp({
    databaseUrl: options.databaseUrl,
    env: {
      ANCHOR_FILE: options.anchorFile ?? newAnchorFile(),
      ...(options.anchorEmail ? { ANCHOR_EMAIL: options.anchorEmail } : {}),
      ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
    },
  });
}

/** One balanced entry between two of the bank's own accounts (no customer, no staff call: only the ledger). */
async function book(ctx: TestContext, description: string): Promise<string> {
  const [cash, operations] = await Promise.all([bankAccountId(ctx.database.db, 'bank_cash'), bankAccountId(ctx.database.db, 'bank_operations')]);
  const [entry] = await ctx.database.db.transaction().execute((trx) =>
    postEntries(trx, [
      {
        kind: 'adjustment',
        description,
        authorId: null,
        postings: [
          { accountId: cash, amountCents: -1_250, memo: 'Paid out', counterparty: 'Supplier A' },
          { accountId: operations, amountCents: 1_250, memo: 'Paid in', counterparty: 'Supplier A' },
        ],
      },
    ]),
  );
  return entry!.id;
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

/** The superuser's connection (the test's admin URL: the app's database, as a superuser). */
async function asSuperuser<T>(ctx: TestContext, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const role = await client.query<{ rolsuper: boolean }>('select rolsuper from pg_roles where rolname = current_user');
    expect(role.rows[0]?.rolsuper).toBe(true);
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Rewrites one posting of an entry, then recomputes every ledger chain hash from that entry on, as a careful forger would. */
async function rewritePostingAndRechain(ctx: TestContext, entryId: string): Promise<void> {
  await asSuperuser(ctx, async (client) => {
    await client.query('alter table postings disable trigger user');
    await client.query(`update postings set counterparty = 'Mallory Ltd', memo = 'Paid to Mallory' where entry_id = $1 and amount > 0`, [entryId]);
    await client.query('alter table postings enable trigger user');
  });
  const from = await ctx.database.db.selectFrom('ledger_chain').select('position').where('entry_id', '=', entryId).executeTakeFirstOrThrow();
  const links = await ctx.database.db
    .selectFrom('ledger_chain')
    .select(['position', 'entry_id'])
    .where('position', '>=', from.position)
    .orderBy('position')
    .execute();
  const previous = await ctx.database.db
    .selectFrom('ledger_chain')
    .select('hash')
    .where('position', '=', from.position - 1)
    .executeTakeFirst();
  const entries = await loadHashedEntries(
    ctx.database.db,
    links.map((link) => link.entry_id),
  );
  let prevHash = previous?.hash ?? GENESIS_HASH;
  const rewritten = links.map((link) => {
    const hash = entryHash(prevHash, { ...entries.get(link.entry_id)!, seq: link.position });
    const row = { position: link.position, prevHash, hash };
    prevHash = hash;
    return row;
  });
  await asSuperuser(ctx, async (client) => {
    await client.query('begin');
    await client.query('alter table ledger_chain disable trigger user');
    for (const row of rewritten)
      await client.query('update ledger_chain set prev_hash = $2, hash = $3 where position = $1', [row.position, row.prevHash, row.hash]);
    await client.query('alter table ledger_chain enable trigger user');
    await client.query('commit');
  });
}

/** Rewrites one audit record's action, then recomputes every audit chain hash from it on. */
async function rewriteAuditRecordAndRechain(ctx: TestContext, auditId: number, action: string): Promise<void> {
  await asSuperuser(ctx, async (client) => {
    await client.query('alter table audit_records disable trigger user');
    await client.query('update audit_records set action = $2 where id = $1', [auditId, action]);
    await client.query('alter table audit_records enable trigger user');
  });
  const from = await ctx.database.db.selectFrom('audit_chain').select('position').where('audit_id', '=', auditId).executeTakeFirstOrThrow();
  const links = await ctx.database.db
    .selectFrom('audit_chain')
    .select(['position', 'audit_id'])
    .where('position', '>=', from.position)
    .orderBy('position')
    .execute();
  const previous = await ctx.database.db
    .selectFrom('audit_chain')
    .select('hash')
    .where('position', '=', from.position - 1)
    .executeTakeFirst();
  const records = await loadChainedRecords(
    ctx.database.db,
    links.map((link) => link.audit_id),
  );
  let prevHash = previous?.hash ?? GENESIS_HASH;
  await asSuperuser(ctx, async (client) => {
    await client.query('begin');
    await client.query('alter table audit_chain disable trigger user');
    for (const link of links) {
      const hash = auditRecordHash(prevHash, link.position, records.get(link.audit_id)!);
      await client.query('update audit_chain set prev_hash = $2, hash = $3 where position = $1', [link.position, prevHash, hash]);
      prevHash = hash;
    }
    await client.query('alter table audit_chain enable trigger user');
    await client.query('commit');
  });
}

/** `npm run ledger:verify` as an operator runs it: a child process with DATABASE_URL and ANCHOR_FILE. */
function runVerifyCli(ctx: TestContext): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli('src/server/cli/verify-ledger.ts', ctx);
}

function runCli(script: string, ctx: TestContext): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: {
        ...process.env,
        DATABASE_URL: ctx.databaseUrl,
        ANCHOR_FILE: ctx.config.anchorFile,
        DATA_DIR: ctx.config.dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await app({ anchorEmail: 'Auditors@Bank.example' });
  admin = await adminToken(ctx);
});
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

const anchorNow = (context: TestContext, token: string) =>
  context.app.inject({ method: 'POST', url: '/api/admin/ledger/anchors', headers: bearer(token), payload: {} });
const anchorList = (context: TestContext, token: string, query = '') =>
  context.app.inject({ method: 'GET', url: `/api/admin/ledger/anchors${query}`, headers: bearer(token) });

describe('Anchor now (POST /api/admin/ledger/anchors)', () => {
  it('signs both chain heads, appends one JSON line to ANCHOR_FILE, records it and audits who asked', async () => {
    await book(ctx, 'Before the first anchor');
    const response = await anchorNow(ctx, admin);
    expect(response.statusCode).toBe(201);
    const anchor = json(response).data;
    const ledgerHead = await ctx.database.db
      .selectFrom('ledger_chain')
      .select(['position', 'hash'])
      .orderBy('position', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(anchor).toMatchObject({ seq: 1, ledgerHead: { position: ledgerHead.position, hash: ledgerHead.hash }, keyId: ctx.context.signer.keyId });
    expect(anchor.ledgerHead.position).toBeGreaterThan(0); // the entry just booked was sealed first, so the anchor covers it
    expect(json(response).message).toBe(
      `Anchor 1 written: ledger chain at position ${anchor.ledgerHead.position}, audit chain at position ${anchor.auditHead.position}.`,
    );

    // The file holds exactly the line, keys in the documented order, and the signature covers the documented text.
    const [line, ...rest] = lines(ctx.config.anchorFile);
    expect(rest).toEqual([]);
    expect(line).toBe(anchor.line);
    expect(Object.keys(JSON.parse(line!))).toEqual(['seq', 'ledgerHead', 'auditHead', 'at', 'keyId', 'signature']);
    const signed = [
      'ledgerline-anchor-v1',
      'seq=1',
      `ledger=${anchor.ledgerHead.position}:${anchor.ledgerHead.hash}`,
      `audit=${anchor.auditHead.position}:${anchor.auditHead.hash}`,
      `at=${anchor.at}`,
      `keyId=${anchor.keyId}`,
    ].join('\n');
    expect(anchorMessage(anchor)).toBe(signed);
    const publicKey = await findSigningKey(ctx.database.db, anchor.keyId);
    expect(verifySignature(publicKey!, signed, anchor.signature)).toBe(true);
    expect(verifySignature(publicKey!, signed.replace('seq=1', 'seq=2'), anchor.signature)).toBe(false);

    const recorded = await ctx.database.db.selectFrom('anchors').selectAll().execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ seq: 1, line, daily_date: null, requested_by: expect.any(String) });
    const log = await ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'after', 'actor_email'])
      .where('action', '=', 'ledger.anchor')
      .execute();
    expect(log).toEqual([{ action: 'ledger.anchor', target_id: '1', after: expect.objectContaining({ seq: 1 }), actor_email: 'admin@example.com' }]);

    await expect(sql`update anchors set line = 'x'`.execute(ctx.database.db)).rejects.toThrow(/anchors is append-only/);
    await expect(sql`delete from anchors`.execute(ctx.database.db)).rejects.toThrow(/anchors is append-only/);

    const listed = json(await anchorList(ctx, admin)).data;
    expect(listed).toMatchObject({ total: 1, page: 1, items: [{ seq: 1, line, requestedBy: 'admin@example.com', dailyDate: null }] });
  });

  it('with ANCHOR_EMAIL, puts the line in the outbox in the same transaction', async () => {
    const response = await anchorNow(ctx, admin);
    expect(response.statusCode).toBe(201);
    const { line, seq } = json(response).data;
    const mail = await ctx.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'auditors@bank.example').orderBy('id').execute();
    expect(mail.map((row) => row.subject)).toEqual([expect.stringContaining('ledger anchor 1'), expect.stringContaining(`ledger anchor ${seq}`)]);
    expect(mail.at(-1)!.body.split('\n')).toContain(line);
    await drainJobs(ctx);
    const sent = await ctx.database.db.selectFrom('mail_outbox').select('status').where('to_address', '=', 'auditors@bank.example').execute();
    expect(sent.every((row) => row.status === 'sent')).toBe(true);
  });

  it('is for staff only; a customer is refused and nothing is written', async () => {
    const customer = await createCustomer(ctx);
    const before = lines(ctx.config.anchorFile).length;
    expect((await anchorNow(ctx, customer.token)).statusCode).toBe(403);
    expect((await anchorList(ctx, customer.token)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/admin/ledger/anchors', payload: {} })).statusCode).toBe(401);
    expect(json(await anchorList(ctx, admin, '?page=0'))).toMatchObject({ message: expect.stringContaining('page') });
    expect((await anchorList(ctx, admin, '?page=0')).statusCode).toBe(400);
    expect(lines(ctx.config.anchorFile)).toHaveLength(before);
  });

  it('the verify button reports both chains and every anchor, with the words of ledger:verify', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/admin/ledger/verify', headers: bearer(admin), payload: {} });
    expect(response.statusCode).toBe(200);
    const data = json(response).data;
    const count = lines(ctx.config.anchorFile).length;
    const newest = JSON.parse(lines(ctx.config.anchorFile).at(-1)!).at;
    expect(data).toMatchObject({ ok: true, problem: null, anchors: { count, newestAt: newest, failingSeq: null } });
    expect(data.message).toMatch(new RegExp(`; \\d+ audit records on the audit chain[^;]*; ${count} anchors match, newest at ${newest}\\.$`));
  });
});

describe('the daily anchor', () => {
  it('anchors once per bank day, whichever of two processes runs first', async () => {
    const own = await app();
    const other = await app({ databaseUrl: own.databaseUrl, anchorFile: own.config.anchorFile, dataDir: own.config.dataDir });
    try {
      const results = await Promise.all([runDailyAnchor(own.context), runDailyAnchor(other.context), runDailyAnchor(own.context)]);
      expect(results.filter((result) => result !== null)).toHaveLength(1);
      expect(lines(own.config.anchorFile)).toHaveLength(1);
      const [row] = await own.database.db.selectFrom('anchors').select(['seq', 'daily_date', 'requested_by']).execute();
      expect(row).toEqual({ seq: 1, daily_date: new Date().toISOString().slice(0, 10), requested_by: null });
      // The next bank day gets its own.
      const tomorrow = { ...own.context, clock: { now: () => new Date(Date.now() + 86_400_000) } };
      expect(await runDailyAnchor(tomorrow)).toMatchObject({ seq: 2, dailyDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) });
      expect((await verifyBooks(own.database.db, own.config)).lines).toEqual([expect.stringMatching(/; 2 anchors match, newest at /)]);
    } finally {
      await other.close();
      await own.close();
    }
  });

  it('two processes anchoring at once write one line per run, in seq order', async () => {
    const own = await app();
    try {
      await book(own, 'Something to anchor');
      const runs = await Promise.all([runCli('src/server/cli/anchor.ts', own), runCli('src/server/cli/anchor.ts', own), writeAnchor(own.context)]);
      for (const run of runs.slice(0, 2) as Array<{ code: number; stdout: string; stderr: string }>) expect(run, run.stderr).toMatchObject({ code: 0 });
      const written = lines(own.config.anchorFile).map((line) => JSON.parse(line) as { seq: number });
      expect(written.map((anchor) => anchor.seq)).toEqual([1, 2, 3]);
      const printed = (runs.slice(0, 2) as Array<{ stdout: string }>).map((run) => run.stdout.trim());
      for (const line of printed) expect(lines(own.config.anchorFile)).toContain(line);
      expect(await own.database.db.selectFrom('anchors').select('seq').orderBy('seq').execute()).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
      expect((await verifyBooks(own.database.db, own.config)).ok).toBe(true);
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe('ledger:verify against the anchors', () => {
  it('catches a superuser who rewrites a posting and recomputes every later hash, naming the first anchor that no longer matches', async () => {
    const own = await app();
    try {
      await book(own, 'Covered by anchor 1');
      await writeAnchor(own.context);
      const target = await book(own, 'The entry that will be rewritten');
      await book(own, 'After it');
      await writeAnchor(own.context);
      await book(own, 'Later still');
      await writeAnchor(own.context);

      const honest = await runVerifyCli(own);
      expect(honest.code, honest.stderr).toBe(0);
      const third = JSON.parse(lines(own.config.anchorFile)[2]!) as { at: string };
      expect(honest.stdout.trim()).toMatch(
        new RegExp(
          `^OK: \\d+ entries, \\d+ accounts; every balance matches, \\d+ entries on the hash chain; \\d+ audit records on the audit chain; 3 anchors match, newest at ${third.at}\\.$`,
        ),
      );

      await rewritePostingAndRechain(own, target);
      // The ledger on its own is consistent again: only the anchors can tell.
      const books = await verifyBooks(own.database.db, own.config);
      expect(books.ledger.ok).toBe(true);
      expect(books.anchors).toMatchObject({ ok: false, seq: 2, failing: 2 });

      const caught = await runVerifyCli(own);
      expect(caught.code).toBe(1);
      expect(caught.stdout).toBe('');
      const second = JSON.parse(lines(own.config.anchorFile)[1]!) as { at: string; ledgerHead: { position: number } };
      expect(caught.stderr.trim()).toBe(
        `FAILED: anchor 2 (at ${second.at}, line 2) no longer matches: the ledger chain at position ${second.ledgerHead.position} recomputes to ` +
          `${books.ledger.recomputed!.hashesAt.get(second.ledgerHead.position)!.slice(0, 16)}..., the anchor says ${JSON.parse(lines(own.config.anchorFile)[1]!).ledgerHead.hash.slice(0, 16)}... (2 problems with anchors in all)`,
      );
    } finally {
      await own.close();
    }
  }, 60_000);

  it('catches a rewritten audit record whose chain was recomputed, and an edit without recomputation', async () => {
    const own = await app();
    try {
      const staff = await own.database.db.selectFrom('users').select(['id', 'email']).where('is_admin', '=', true).executeTakeFirstOrThrow();
      const record = (action: string) =>
        audit(own.database.db, { user: staff, ip: '192.0.2.7' }, { action, targetType: 'ledger', before: { n: 1 }, after: { n: 2 }, reason: 'A test' });
      await record('test.first');
      await writeAnchor(own.context);
      await record('test.second');
      await writeAnchor(own.context);
      const second = await own.database.db.selectFrom('audit_records').select('id').where('action', '=', 'test.second').executeTakeFirstOrThrow();
      expect((await verifyBooks(own.database.db, own.config)).ok).toBe(true);

      await rewriteAuditRecordAndRechain(own, second.id, 'test.first');
      const rewritten = await verifyBooks(own.database.db, own.config);
      expect(rewritten.audit.ok).toBe(true);
      expect(rewritten.anchors).toMatchObject({ ok: false, seq: 2 });
      expect(rewritten.lines).toEqual([
        expect.stringMatching(
          /^FAILED: anchor 2 \(at \S+, line 2\) no longer matches: the audit chain at position \d+ recomputes to [0-9a-f]{16}\.\.\., the anchor says [0-9a-f]{16}\.\.\.$/,
        ),
      ]);

      // Without recomputing, the audit chain itself names the record.
      await asSuperuser(own, async (client) => {
        await client.query('alter table audit_records disable trigger user');
        await client.query(`update audit_records set target_type = 'nothing' where id = $1`, [second.id]);
        await client.query('alter table audit_records enable trigger user');
      });
      const edited = await verifyBooks(own.database.db, own.config);
      expect(edited.audit).toMatchObject({ ok: false, recordId: second.id });
      expect(edited.lines[0]).toMatch(
        new RegExp(`^FAILED in the audit trail: audit record ${second.id} does not match its hash \\(audit chain position \\d+\\)$`),
      );
    } finally {
      await own.close();
    }
  }, 60_000);

  it('names an anchor line whose signature does not verify, one from an unknown key, a malformed line and a removed line', async () => {
    const own = await app();
    try {
      await book(own, 'Anchored');
      await writeAnchor(own.context);
      await writeAnchor(own.context);
      const original = fs.readFileSync(own.config.anchorFile, 'utf8');
      const [first, second] = lines(own.config.anchorFile).map((line) => JSON.parse(line) as Record<string, unknown>);

      // Someone with the file but not the key moves the anchored head: the signature no longer covers it.
      const forged = { ...second, ledgerHead: { position: 1, hash: 'a'.repeat(64) } };
      fs.writeFileSync(own.config.anchorFile, `${JSON.stringify(first)}\n${JSON.stringify(forged)}\n`);
      let result = await verifyBooks(own.database.db, own.config);
      expect(result.ok).toBe(false);
      expect(result.lines).toEqual([`FAILED: anchor 2 (at ${second!.at}, line 2) has a signature that does not verify with key ${second!.keyId}`]);
      const cli = await runVerifyCli(own);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain('anchor 2 (at');

      const otherKey = { ...second, keyId: '0123456789abcdef' };
      fs.writeFileSync(own.config.anchorFile, `${JSON.stringify(first)}\n${JSON.stringify(otherKey)}\n`);
      result = await verifyBooks(own.database.db, own.config);
      expect(result.anchors).toMatchObject({
        ok: false,
        seq: 2,
        problem: expect.stringContaining('is signed with key 0123456789abcdef, which is not one the bank signed with'),
      });

      fs.writeFileSync(own.config.anchorFile, `${original}{"seq":3,"ledgerHead"\n`);
      result = await verifyBooks(own.database.db, own.config);
      expect(result.anchors).toMatchObject({ ok: false, seq: null, problem: 'line 3 of ANCHOR_FILE is not an anchor (not JSON)' });

      fs.writeFileSync(own.config.anchorFile, `${JSON.stringify(first)}\n`);
      result = await verifyBooks(own.database.db, own.config);
      expect(result.anchors).toMatchObject({
        ok: false,
        seq: 2,
        problem: `anchor 2 (at ${second!.at}) is recorded in the database but missing from ANCHOR_FILE`,
      });

      fs.writeFileSync(own.config.anchorFile, original);
      expect((await verifyBooks(own.database.db, own.config)).ok).toBe(true);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('says OK with "no anchors yet" before the first anchor', async () => {
    const own = await app();
    try {
      await sealAll(own.database.db);
      await sealAuditAll(own.database.db);
      const result = await verifyBooks(own.database.db, own.config);
      expect(result.lines).toEqual([expect.stringMatching(/^OK: .*; \d+ audit records on the audit chain; no anchors yet\.$/)]);
    } finally {
      await own.close();
    }
  });
});
