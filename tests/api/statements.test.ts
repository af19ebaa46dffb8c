import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankDetails } from '../../src/shared/bank-details';
import type { Clock } from '../../src/server/context';
import { inTransaction } from '../../src/server/db/transaction';
import { ensureBankAccounts } from '../../src/server/ledger/accounts';
import { bankAccountId, postEntries } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { newSigningKeyPem } from '../../src/server/signing/keys';
import { queueMonthlyStatements, statementPdf } from '../../src/server/statements/service';
import { adminToken, bearer, createCustomer, createTestApp, drainJobs, json, type TestContext, staffCall } from '../support/app';
import { file, multipart } from '../support/multipart';

// Statements, their verification and the exports, against a real PostgreSQL. Entries are booked
// in past months by posting with a booking time (as the ledger writer does with its clock), and
// the app's clock stands in December 2025, so October and November are closed months.

class TestClock implements Clock {
  constructor(public current: Date) {}
  now(): Date {
    return this.current;
  }
}

const DECEMBER = new Date('2025-12-05T10:00:00.000Z');
const clock = new TestClock(DECEMBER);
let ctx: TestContext;
let staff: string;
beforeAll(async () => {
  ctx = await createTestApp({ clock });
  staff = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

async function accountIdOf(c: TestContext, userId: string, kind: 'savings' | 'checking'): Promise<string> {
  const row = await c.database.db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', userId).where('kind', '=', kind).executeTakeFirstOrThrow();
  return row.id;
}

/** Books an entry between the customer's account and the bank's operations account at a given time. */
async function book(
  c: TestContext,
  userId: string,
  kind: 'savings' | 'checking',
  cents: number,
  at: string,
  description: string,
  counterparty: string | null = null,
) {
  const accountId = await accountIdOf(c, userId, kind);
  const operations = await bankAccountId(c.database.db, 'bank_operations');
  const [entry] = await inTransaction(c.database.db, (trx) =>
    postEntries(
      trx,
      [
        {
          kind: 'adjustment',
          description,
          authorId: null,
          postings: [
            { accountId, amountCents: cents, counterparty },
            { accountId: operations, amountCents: -cents },
          ],
        },
      ],
      { now: new Date(at) },
    ),
  );
  return entry!;
}

/** A customer with a known October and November: checking +1,000.00, -250.50, +10.00 in October, -100.00 in November; savings +500.00 in October. */
async function customerWithHistory(c: TestContext = ctx) {
  const customer = await createCustomer(c);
  const october = [
    await book(c, customer.userId, 'checking', 100_000, '2025-10-03T10:00:00Z', 'Salary October', 'Acme Payroll'),
    await book(c, customer.userId, 'checking', -25_050, '2025-10-10T12:00:00Z', '=1+2, rent "Harbor St"'),
    await book(c, customer.userId, 'checking', 1_000, '2025-10-31T23:59:59.500Z', 'Interest'),
  ];
  await book(c, customer.userId, 'savings', 50_000, '2025-10-20T09:00:00Z', 'Savings deposit');
  await book(c, customer.userId, 'checking', -10_000, '2025-11-15T08:00:00Z', 'Groceries');
  return { ...customer, october };
}

const pdfUrl = (month: string, account = 'checking') => `/api/statements/${month}.pdf?account=${account}`;
const download = (token: string, month: string, account = 'checking', c: TestContext = ctx) =>
  c.app.inject({ method: 'GET', url: pdfUrl(month, account), headers: bearer(token) });
const verifyUpload = (bytes: Buffer, c: TestContext = ctx) => {
  const form = multipart({ file: file('statement.pdf', 'application/pdf', bytes) });
  return c.app.inject({ method: 'POST', url: '/api/statements/verify', headers: form.headers, payload: form.payload });
};
const statementCount = async (c: TestContext = ctx) =>
  Number(
    (
      await c.database.db
        .selectFrom('statements')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The PDF's text as pdftotext (Debian's poppler-utils) reads it, columns kept. */
const textOf = (bytes: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');
const cents = (money: string) => Math.round(Number(money.replace(/[$,]/g, '')) * 100);

/** The figures a reader of the PDF sees: the summary, and every line with its amount and running balance. */
function readStatement(text: string) {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => /Opening balance\s+Money in\s+Money out\s+Closing balance/.test(line));
  const summary = (lines[header + 1] ?? '')
    .trim()
    .split(/\s{2,}/)
    .map(cents);
  const rows = lines
    .map((line) => line.match(/^(\d{4}-\d{2}-\d{2})\s+(.+?)\s+(-?\$[\d,]+\.\d{2})\s+(-?\$[\d,]+\.\d{2})\s*$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .map((match) => ({ date: match[1]!, description: match[2]!, amount: cents(match[3]!), balance: cents(match[4]!) }));
  const opening = cents(text.match(/^\s+Opening balance\s+(-?\$[\d,]+\.\d{2})\s*$/m)?.[1] ?? 'NaN');
  const closing = cents(text.match(/^\s+Closing balance\s+(-?\$[\d,]+\.\d{2})\s*$/m)?.[1] ?? 'NaN');
  return { summary: { opening: summary[0], in: summary[1], out: summary[2], closing: summary[3] }, rows, opening, closing };
}

/** The signed message rebuilt from the documented format (docs/decisions/015-verifiable-statements.md), not from the app's code. */
function documentedMessage(answer: Record<string, string | number>): string {
  return [
    'ledgerline-statement-signature-v1',
    `statement-id: ${answer.statementId}`,
    `key-id: ${answer.keyId}`,
    `issued-at: ${answer.issuedAt}`,
    `customer-name: ${answer.customerName}`,
    `account-number-masked: ${answer.accountNumberMasked}`,
    `account: ${answer.account}`,
    `period: ${answer.period}`,
    `sha256: ${answer.sha256}`,
    `ledger-chain-position: ${answer.ledgerChainPosition}`,
    `ledger-chain-hash: ${answer.ledgerChainHash}`,
  ].join('\n');
}

/** Checks a verifier's answer offline: the published key of its key id, node:crypto, nothing of the app. */
async function checkOffline(c: TestContext, answer: Record<string, string | number>): Promise<boolean> {
  const keys = json(await c.app.inject({ method: 'GET', url: '/api/statements/public-key' })).data as Array<{ keyId: string; publicKey: string }>;
  const key = keys.find((candidate) => candidate.keyId === answer.keyId);
  if (!key) return false;
  return verify(null, Buffer.from(documentedMessage(answer), 'utf8'), createPublicKey(key.publicKey), Buffer.from(String(answer.signature), 'base64'));
}

/** The same bytes with one digit of the visible text changed (the PDF's text is uncompressed: "$1,010.00" is <24312c3031302e3030>). */
function changeOneDigit(bytes: Buffer, visible: string, replacement: string): Buffer {
  const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');
  const source = bytes.toString('latin1');
  const at = source.indexOf(`<${hex(visible)}>`);
  expect(at, `the PDF writes ${visible} as one hex string`).toBeGreaterThan(0);
  const changed = Buffer.from(source.slice(0, at) + `<${hex(replacement)}>` + source.slice(at + hex(visible).length + 2), 'latin1');
  expect(changed.length).toBe(bytes.length);
  expect([...changed].filter((byte, index) => byte !== bytes[index])).toHaveLength(1);
  return changed;
}

describe('GET /api/statements', () => {
  it('lists the closed months in which an account moved, newest first, and nobody else sees them', async () => {
    const owner = await customerWithHistory();
    const other = await createCustomer(ctx);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/statements', headers: bearer(owner.token) });
    expect(list.statusCode).toBe(200);
    expect(json(list).data).toEqual([
      { month: '2025-11', account: 'checking', issuedAt: null },
      { month: '2025-10', account: 'checking', issuedAt: null },
      { month: '2025-10', account: 'savings', issuedAt: null },
    ]);
    expect((await download(owner.token, '2025-10')).statusCode).toBe(200);
    const after = json(await ctx.app.inject({ method: 'GET', url: '/api/statements', headers: bearer(owner.token) })).data;
    expect(after[1]).toEqual({ month: '2025-10', account: 'checking', issuedAt: DECEMBER.toISOString() });

    expect(json(await ctx.app.inject({ method: 'GET', url: '/api/statements', headers: bearer(other.token) })).data).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/statements' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/statements', headers: bearer(staff) })).statusCode).toBe(403);
  });
});

describe('GET /api/statements/{month}.pdf', () => {
  it("prints every line with its running balance and totals that agree with the ledger's postings", async () => {
    const owner = await customerWithHistory();
    const response = await download(owner.token, '2025-10');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="statement-checking-2025-10.pdf"');
    expect(response.headers['x-statement-interim']).toBe('false');
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const text = textOf(bytes);
    const statement = readStatement(text);
    expect(statement.summary).toEqual({ opening: 0, in: 101_000, out: 25_050, closing: 75_950 });
    expect(statement.rows.map((row) => [row.date, row.amount, row.balance])).toEqual([
      ['2025-10-03', 100_000, 100_000],
      ['2025-10-10', -25_050, 74_950],
      ['2025-10-31', 1_000, 75_950],
    ]);
    // What the reader can check by hand: the running balances add up, and so do the totals.
    let running = statement.opening;
    for (const row of statement.rows) expect(row.balance).toBe((running += row.amount));
    expect(statement.closing).toBe(running);
    expect(statement.rows.filter((row) => row.amount > 0).reduce((sum, row) => sum + row.amount, 0)).toBe(statement.summary.in);
    // ...and they are the ledger's own figures for the account.
    const checking = await accountIdOf(ctx, owner.userId, 'checking');
    const postings = await ctx.database.db
      .selectFrom('postings')
      .select(['amount', 'balance_after'])
      .where('account_id', '=', checking)
      .orderBy('entry_seq')
      .execute();
    expect(postings.slice(0, 3).map((row) => [row.amount, row.balance_after])).toEqual(statement.rows.map((row) => [row.amount, row.balance]));

    expect(text).toContain('Salary October - Acme Payroll');
    expect(text).toContain(`Checking account ${owner.accountNumber}`);
    expect(text).toContain('1 October 2025 to 31 October 2025 (UTC)');
    expect(text).toContain(bankDetails.address);
    expect(text).toContain(`Routing number ${bankDetails.routingNumber}`);
    expect(text).toContain(`${ctx.config.publicUrl}/verify-statement`);
    expect(text).toContain('Demo bank: no real money. Not a real bank statement.');
    const stored = await ctx.database.db
      .selectFrom('statements')
      .selectAll()
      .where('account_id', '=', checking)
      .where('period', '=', '2025-10')
      .executeTakeFirstOrThrow();
    expect(text).toContain(`Statement ID ${stored.id}`);

    // What was recorded: the hash of these exact bytes, the range, and the chain link of the month's last entry.
    expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(Buffer.from(stored.pdf).equals(bytes)).toBe(true);
    expect(stored).toMatchObject({ opening_cents: 0, closing_cents: 75_950, total_in_cents: 101_000, total_out_cents: 25_050, line_count: 3 });
    expect(stored.last_entry_id).toBe(owner.october[2]!.id);
    const link = await ctx.database.db.selectFrom('ledger_chain').selectAll().where('entry_id', '=', owner.october[2]!.id).executeTakeFirstOrThrow();
    expect([stored.ledger_chain_position, stored.ledger_chain_hash]).toEqual([Number(link.position), link.hash]);
    expect(stored.key_id).toBe(ctx.context.signer.keyId);

    // The savings statement is its own.
    const savings = readStatement(textOf((await download(owner.token, '2025-10', 'savings')).rawPayload));
    expect(savings.summary).toEqual({ opening: 0, in: 50_000, out: 0, closing: 50_000 });
    // November opens where October closed.
    const november = readStatement(textOf((await download(owner.token, '2025-11')).rawPayload));
    expect(november.summary).toEqual({ opening: 75_950, in: 0, out: 10_000, closing: 65_950 });
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('is made once: a re-download is the same bytes, after a staff note on a line and after the customer is closed and anonymized', async () => {
    const owner = await customerWithHistory();
    const first = (await download(owner.token, '2025-10')).rawPayload;
    clock.current = new Date(DECEMBER.getTime() + 60_000);
    try {
      expect((await download(owner.token, '2025-10')).rawPayload.equals(first)).toBe(true);

      const note = await staffCall(ctx, {
        method: 'PUT',
        url: `/api/transaction/admin/${owner.october[0]!.id}`,
        headers: bearer(staff),
        payload: { description: 'Payroll (renamed by staff)', reason: 'Customer asked for a clearer label' },
      });
      expect(note.statusCode).toBe(200);
      expect((await download(owner.token, '2025-10')).rawPayload.equals(first)).toBe(true);
      expect(textOf(first)).toContain('Salary October');

      // Closing needs zero balances: pay the money out, then close (the customer's data is anonymized).
      await book(ctx, owner.userId, 'checking', -65_950, '2025-12-05T09:00:00Z', 'Paid out');
      await book(ctx, owner.userId, 'savings', -50_000, '2025-12-05T09:00:01Z', 'Paid out');
      const closed = await staffCall(ctx, { method: 'DELETE', url: `/api/user/admin/${owner.userId}`, headers: bearer(staff) });
      expect(closed.statusCode).toBe(200);
      const user = await ctx.database.db.selectFrom('users').selectAll().where('id', '=', owner.userId).executeTakeFirstOrThrow();
      expect(user.first_name).toBe('Closed');
      // The customer can no longer sign in; the bank's copy is what a re-download (the service) answers.
      const again = await statementPdf({ ...ctx.context, actor: { user, sessionId: null, ip: null, userAgent: null } }, '2025-10', 'checking');
      expect(again.bytes.equals(first)).toBe(true);
      const verified = json(await verifyUpload(first)).data;
      expect(verified).toMatchObject({ genuine: true, customerName: 'Dana Rivera', period: '2025-10' });
    } finally {
      clock.current = DECEMBER;
    }
  });

  it('answers the current month as an interim PDF: marked, not signed, not kept, and not verifiable', async () => {
    const owner = await customerWithHistory();
    await book(ctx, owner.userId, 'checking', 4_200, '2025-12-02T08:00:00Z', 'Refund');
    const before = await statementCount();
    const response = await download(owner.token, '2025-12');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-statement-interim']).toBe('true');
    expect(response.headers['content-disposition']).toBe('attachment; filename="statement-checking-2025-12-interim.pdf"');
    const text = textOf(response.rawPayload);
    expect(text).toContain('Interim statement');
    expect(text).toContain('NOT SIGNED');
    expect(text).toContain('1 December 2025 to 5 December 2025 (so far)');
    expect(readStatement(text).summary).toEqual({ opening: 65_950, in: 4_200, out: 0, closing: 70_150 });
    expect(await statementCount()).toBe(before);
    // Not genuine (nothing interim is kept), and told as what it says it is rather than as an edit.
    expect(json(await verifyUpload(response.rawPayload)).data).toEqual({ genuine: false, interim: true });
  });

  it('refuses bad months and accounts with 400 and stores nothing; a month without transactions is 404', async () => {
    const owner = await customerWithHistory();
    const before = await statementCount();
    for (const [url, message] of [
      ['/api/statements/2025-13.pdf?account=checking', 'The month must be written YYYY-MM'],
      ['/api/statements/2025-1.pdf?account=checking', 'The month must be written YYYY-MM'],
      ['/api/statements/october.pdf?account=checking', 'The month must be written YYYY-MM'],
      ['/api/statements/1899-12.pdf?account=checking', 'The month must be between 1900-01 and 2100-12'],
      ['/api/statements/2026-01.pdf?account=checking', 'Statements are for the current month or earlier months.'],
      ['/api/statements/2025-10.pdf?account=loans', 'account must be savings or checking'],
      ['/api/statements/2025-10.pdf', 'account must be savings or checking'],
    ] as const) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: bearer(owner.token) });
      expect(response.statusCode, url).toBe(400);
      expect(json(response).message, url).toBe(message);
    }
    const empty = await download(owner.token, '2025-09');
    expect(empty.statusCode).toBe(404);
    expect(json(empty).message).toBe('There is no statement for that month: the account had no transactions in it.');
    expect(await statementCount()).toBe(before);
    expect((await ctx.app.inject({ method: 'GET', url: pdfUrl('2025-10') })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: pdfUrl('2025-10'), headers: bearer(staff) })).statusCode).toBe(403);
  });

  it("never answers someone else's statement: another customer's month is theirs alone (404 for one without transactions)", async () => {
    const owner = await customerWithHistory();
    const other = await createCustomer(ctx);
    const mine = (await download(owner.token, '2025-10')).rawPayload;
    const theirs = await download(other.token, '2025-10');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.rawPayload.equals(mine)).toBe(false);
    const stored = await ctx.database.db.selectFrom('statements').select('user_id').where('period', '=', '2025-10').execute();
    expect(stored.map((row) => row.user_id)).not.toContain(other.userId);
  });

  it('says a month that ended moments ago is being made (409), until its grace minute has passed', async () => {
    const owner = await customerWithHistory();
    clock.current = new Date('2025-12-01T00:00:30Z');
    try {
      const closing = await download(owner.token, '2025-11');
      expect(closing.statusCode).toBe(409);
      expect(json(closing).message).toBe('That month has just ended: its statement is being made. Please try again in a minute.');
      expect(
        json(await ctx.app.inject({ method: 'GET', url: '/api/statements', headers: bearer(owner.token) })).data.map((row: { month: string }) => row.month),
      ).toEqual(['2025-10', '2025-10']);
      clock.current = new Date('2025-12-01T00:01:01Z');
      expect((await download(owner.token, '2025-11')).statusCode).toBe(200);
    } finally {
      clock.current = DECEMBER;
    }
  });
});

describe('POST /api/statements/verify', () => {
  it('accepts a genuine statement, checkable offline with the published key, and refuses it with one digit changed', async () => {
    const owner = await customerWithHistory();
    const genuine = (await download(owner.token, '2025-10')).rawPayload;
    const answer = await verifyUpload(genuine);
    expect(answer.statusCode).toBe(200);
    const data = json(answer).data;
    const stored = await ctx.database.db
      .selectFrom('statements')
      .selectAll()
      .where('sha256', '=', createHash('sha256').update(genuine).digest('hex'))
      .executeTakeFirstOrThrow();
    expect(data).toEqual({
      genuine: true,
      statementId: stored.id,
      customerName: 'Dana Rivera',
      accountNumberMasked: `******${owner.accountNumber.slice(-4)}`,
      account: 'checking',
      period: '2025-10',
      issuedAt: DECEMBER.toISOString(),
      keyId: ctx.context.signer.keyId,
      signature: stored.signature,
      sha256: stored.sha256,
      ledgerChainPosition: Number(stored.ledger_chain_position),
      ledgerChainHash: stored.ledger_chain_hash,
    });
    expect(await checkOffline(ctx, data)).toBe(true);
    // The same answer with another period, or another file's hash, does not verify.
    expect(await checkOffline(ctx, { ...data, period: '2025-09' })).toBe(false);

    // Money in, $1,010.00, becomes $1,019.00: one byte of the file, one digit of what it shows.
    const tampered = changeOneDigit(genuine, '$1,010.00', '$1,019.00');
    expect(textOf(tampered)).toContain('$1,019.00');
    expect(textOf(tampered)).not.toContain('$1,010.00');
    const refused = await verifyUpload(tampered);
    expect(refused.statusCode).toBe(200);
    expect(json(refused)).toEqual({ data: { genuine: false } });
    // A byte added at the end is another file too.
    expect(json(await verifyUpload(Buffer.concat([genuine, Buffer.from('\n')]))).data).toEqual({ genuine: false });
  });

  it('answers every upload without a 500: nothing, not a PDF, the wrong field, JSON, and a file over the limit', async () => {
    const missing = multipart({ note: 'no file' });
    const noFile = await ctx.app.inject({ method: 'POST', url: '/api/statements/verify', headers: missing.headers, payload: missing.payload });
    expect(noFile.statusCode).toBe(400);
    expect(json(noFile).message).toBe('Please choose the statement PDF to check.');
    const empty = multipart({ file: file('empty.pdf', 'application/pdf', Buffer.alloc(0)) });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/statements/verify', headers: empty.headers, payload: empty.payload })).statusCode).toBe(400);
    expect(json(await verifyUpload(Buffer.from('not a pdf at all'))).data).toEqual({ genuine: false });
    const wrongField = multipart({ statement: file('s.pdf', 'application/pdf', Buffer.from('%PDF-1.4')) });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/statements/verify', headers: wrongField.headers, payload: wrongField.payload })).statusCode).toBe(
      400,
    );
    const asJson = await ctx.app.inject({ method: 'POST', url: '/api/statements/verify', payload: { file: 'JVBERi0=' } });
    expect(asJson.statusCode).toBe(415);
    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/statements/verify',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\nunterminated',
    });
    expect(broken.statusCode).toBe(400);
    const huge = await verifyUpload(Buffer.alloc(5 * 1024 * 1024 + 1, 0x25));
    expect(huge.statusCode).toBe(413);
  });

  it('is rate-limited per address', async () => {
    const limited = await createTestApp({ rateLimits: true, seedDemo: false });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 11; index += 1) statuses.push((await verifyUpload(Buffer.from(`%PDF-${index}`), limited)).statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('key rotation', () => {
  it('keeps a statement signed with the old key verifiable, and publishes both keys', async () => {
    const owner = await customerWithHistory();
    const october = (await download(owner.token, '2025-10')).rawPayload;
    const oldKeyId = ctx.context.signer.keyId;

    // The operator points BANK_SIGNING_KEY_FILE at a new key and restarts (an app on the same database).
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-rotated-')), 'signing-key.pem');
    fs.writeFileSync(keyFile, newSigningKeyPem(), { mode: 0o600 });
    const rotated = await createTestApp({ databaseUrl: ctx.databaseUrl, clock, env: { BANK_SIGNING_KEY_FILE: keyFile } });
    try {
      expect(rotated.context.signer.keyId).not.toBe(oldKeyId);
      const november = (await download(owner.token, '2025-11', 'checking', rotated)).rawPayload;
      const keys = json(await rotated.app.inject({ method: 'GET', url: '/api/statements/public-key' })).data;
      expect(keys.map((key: { keyId: string; current: boolean }) => [key.keyId, key.current])).toEqual(
        expect.arrayContaining([
          [oldKeyId, false],
          [rotated.context.signer.keyId, true],
        ]),
      );
      expect(
        keys.every((key: { algorithm: string; publicKey: string }) => key.algorithm === 'Ed25519' && key.publicKey.startsWith('-----BEGIN PUBLIC KEY-----')),
      ).toBe(true);

      const old = json(await verifyUpload(october, rotated)).data;
      expect(old).toMatchObject({ genuine: true, keyId: oldKeyId, period: '2025-10' });
      expect(await checkOffline(rotated, old)).toBe(true);
      const fresh = json(await verifyUpload(november, rotated)).data;
      expect(fresh).toMatchObject({ genuine: true, keyId: rotated.context.signer.keyId, period: '2025-11' });
      expect(await checkOffline(rotated, fresh)).toBe(true);
      // The old statement re-downloads as issued, signed with the old key.
      expect((await download(owner.token, '2025-10', 'checking', rotated)).rawPayload.equals(october)).toBe(true);
    } finally {
      await rotated.close();
    }
  });
});

describe('the monthly job', () => {
  it("makes last month's statements on the 1st in BANK_TIMEZONE, once, and catches up after downtime", async () => {
    const jobClock = new TestClock(new Date('2026-10-15T12:00:00Z'));
    const app = await createTestApp({ clock: jobClock, seedDemo: false, env: { BANK_TIMEZONE: 'America/New_York' } });
    try {
      await ensureBankAccounts(app.database.db);
      const customer = await createCustomer(app);
      // 22:00 on 31 October in New York is already 1 November in UTC: it belongs to October here.
      await book(app, customer.userId, 'checking', 30_000, '2026-11-01T02:00:00Z', 'Late October deposit');
      await book(app, customer.userId, 'checking', -5_000, '2026-11-20T15:00:00Z', 'November bill');
      await book(app, customer.userId, 'savings', 7_000, '2027-01-10T15:00:00Z', 'January savings');
      const run = async (at: string) => {
        jobClock.current = new Date(at);
        const result = await queueMonthlyStatements(app.context);
        await drainJobs(app);
        return result;
      };
      const stored = () =>
        app.database.db
          .selectFrom('statements')
          .select(['period', 'account_kind', 'issued_at', 'closing_cents'])
          .orderBy('period')
          .orderBy('account_kind')
          .execute();

      // 00:30 UTC on 1 November is still 31 October in New York: nothing has closed.
      expect((await run('2026-11-01T00:30:00Z')).months).not.toContain('2026-10');
      expect(await stored()).toEqual([]);
      // 04:30 UTC is 00:30 on the 1st in New York: October is made.
      const first = await run('2026-11-01T04:30:00Z');
      expect(first.months).toContain('2026-10');
      expect(first.queued).toBe(1);
      expect(await stored()).toEqual([{ period: '2026-10', account_kind: 'checking', issued_at: new Date('2026-11-01T04:30:00Z'), closing_cents: 30_000 }]);
      // The statement says when it was issued on the bank's clock, as its period does.
      const october = await app.database.db.selectFrom('statements').select('pdf').where('period', '=', '2026-10').executeTakeFirstOrThrow();
      expect(textOf(october.pdf)).toMatch(/Issued\s+1 November 2026 at 00:30 \(America\/New_York\)/);
      // An hour later: nothing new, nothing made twice.
      expect(await run('2026-11-01T05:30:00Z')).toEqual({ months: [], queued: 0 });
      expect(await stored()).toHaveLength(1);

      // The bank is down from November to February: the next run makes November, December (no
      // transactions: none) and January, each once.
      const caughtUp = await run('2027-02-03T09:00:00Z');
      expect(caughtUp.months).toEqual(['2026-11', '2026-12', '2027-01']);
      expect((await stored()).map((row) => [row.period, row.account_kind, row.closing_cents])).toEqual([
        ['2026-10', 'checking', 30_000],
        ['2026-11', 'checking', 25_000],
        ['2027-01', 'savings', 7_000],
      ]);
      expect(await run('2027-02-03T10:00:00Z')).toEqual({ months: [], queued: 0 });
      expect(await stored()).toHaveLength(3);

      // The customer was told of each statement once, in the app, linking to the statements page
      // (read from the table: the customer's session idled out while the clock jumped months).
      const ready = await app.database.db
        .selectFrom('notifications')
        .select(['title', 'link', 'in_app'])
        .where('user_id', '=', customer.userId)
        .where('kind', '=', 'statement_ready')
        .orderBy('title')
        .execute();
      expect(ready).toEqual([
        { title: 'Your January 2027 statement is ready', link: '/account/statements', in_app: true },
        { title: 'Your November 2026 statement is ready', link: '/account/statements', in_app: true },
        { title: 'Your October 2026 statement is ready', link: '/account/statements', in_app: true },
      ]);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/transaction/export', () => {
  const exportUrl = (query: string) => `/api/transaction/export?${query}`;

  it('writes RFC 4180 CSV of the range (dates inclusive), with formulas in descriptions made harmless', async () => {
    const owner = await customerWithHistory();
    const response = await ctx.app.inject({
      method: 'GET',
      url: exportUrl('format=csv&account=checking&from=2025-10-01&to=2025-10-31'),
      headers: bearer(owner.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="transactions-checking-2025-10-01-to-2025-10-31.csv"');
    const rows = response.body.split('\r\n');
    expect(rows[0]).toBe('Date,Value date,Description,Counterparty,Amount,Balance,Currency,Transaction ID');
    expect(rows.slice(1, 4).map((row) => row.split(',').slice(0, 2))).toEqual([
      ['2025-10-03', '2025-10-03'],
      ['2025-10-10', '2025-10-10'],
      ['2025-10-31', '2025-10-31'],
    ]);
    expect(rows[1]).toMatch(/^2025-10-03,2025-10-03,Salary October,Acme Payroll,1000\.00,1000\.00,USD,[0-9a-f-]{36}$/);
    // Quoted because of its comma and quotes, and starting with an apostrophe, not "=".
    expect(rows[2]).toMatch(/^2025-10-10,2025-10-10,"'=1\+2, rent ""Harbor St""",,-250\.50,749\.50,USD,/);
    expect(rows[3]).toMatch(/,10\.00,759\.50,USD,/);
    expect(rows[4]).toBe('');
    expect(rows).toHaveLength(5);

    // One day, inclusive.
    const oneDay = await ctx.app.inject({
      method: 'GET',
      url: exportUrl('format=csv&account=checking&from=2025-10-31&to=2025-10-31'),
      headers: bearer(owner.token),
    });
    expect(oneDay.body.split('\r\n').filter(Boolean)).toHaveLength(2);
  });

  it('writes OFX 2.2 XML with the routing number, the account, a FITID per posting and the closing balance', async () => {
    const owner = await customerWithHistory();
    const response = await ctx.app.inject({
      method: 'GET',
      url: exportUrl('format=ofx&account=checking&from=2025-10-01&to=2025-11-30'),
      headers: bearer(owner.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ofx; charset=utf-8');
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\r\n<?OFX OFXHEADER="200" VERSION="220"')).toBe(true);
    expect(XMLValidator.validate(response.body)).toBe(true);
    const ofx = new XMLParser({ parseTagValue: false }).parse(response.body).OFX;
    const statement = ofx.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.BANKACCTFROM).toEqual({ BANKID: bankDetails.routingNumber, ACCTID: `${owner.accountNumber}-checking`, ACCTTYPE: 'CHECKING' });
    const transactions = statement.BANKTRANLIST.STMTTRN as Array<Record<string, string>>;
    expect(transactions.map((line) => [line.TRNTYPE, line.TRNAMT, line.DTUSER])).toEqual([
      ['CREDIT', '1000.00', '20251003'],
      ['DEBIT', '-250.50', '20251010'],
      ['CREDIT', '10.00', '20251031'],
      ['DEBIT', '-100.00', '20251115'],
    ]);
    const checking = await accountIdOf(ctx, owner.userId, 'checking');
    const postingIds = (await ctx.database.db.selectFrom('postings').select('id').where('account_id', '=', checking).orderBy('entry_seq').execute()).map(
      (row) => row.id,
    );
    expect(transactions.map((line) => line.FITID)).toEqual(postingIds);
    expect(transactions[1]!.MEMO).toBe('=1+2, rent "Harbor St"');
    expect(statement.LEDGERBAL.BALAMT).toBe('659.50');
    expect(statement.LEDGERBAL.DTASOF).toBe('20251201000000.000[0:GMT]');
    expect(ofx.SIGNONMSGSRSV1.SONRS.STATUS.CODE).toBe('0');
  });

  it('refuses bad ranges, formats and accounts with 400, and shows nobody else their lines', async () => {
    const owner = await customerWithHistory();
    for (const [query, message] of [
      ['format=csv&account=checking&from=2025-10-31&to=2025-10-01', 'The start date must be on or before the end date'],
      ['format=csv&account=checking&from=2024-01-01&to=2025-01-02', 'An export covers at most 366 days'],
      ['format=xls&account=checking&from=2025-10-01&to=2025-10-31', 'format must be csv or ofx'],
      ['format=csv&account=loans&from=2025-10-01&to=2025-10-31', 'account must be savings or checking'],
      ['format=csv&account=checking&from=2025-02-30&to=2025-10-31', 'Not a real date'],
      ['format=csv&account=checking&to=2025-10-31', 'from must be a date (YYYY-MM-DD)'],
      ['format=csv&account=checking&from=1e400&to=2025-10-31', 'Dates look like YYYY-MM-DD'],
    ] as const) {
      const response = await ctx.app.inject({ method: 'GET', url: exportUrl(query), headers: bearer(owner.token) });
      expect(response.statusCode, query).toBe(400);
      expect(json(response).message, query).toBe(message);
    }
    // A whole leap year is allowed.
    expect(
      (await ctx.app.inject({ method: 'GET', url: exportUrl('format=csv&account=checking&from=2028-01-01&to=2028-12-31'), headers: bearer(owner.token) }))
        .statusCode,
    ).toBe(200);
    const other = await createCustomer(ctx);
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: exportUrl('format=csv&account=checking&from=2025-10-01&to=2025-10-31'),
      headers: bearer(other.token),
    });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).toBe('Date,Value date,Description,Counterparty,Amount,Balance,Currency,Transaction ID\r\n');
    expect((await ctx.app.inject({ method: 'GET', url: exportUrl('format=csv&account=checking&from=2025-10-01&to=2025-10-31') })).statusCode).toBe(401);
  });
});
