import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AdminLedgerOverview, AdminLedgerVerification } from '../../shared/contracts/admin';
import { audit } from '../audit/audit';
import type { DB } from '../db/database';
import { chainHead } from '../ledger/sealer';
import { describeVerifyResult, verifyLedger } from '../ledger/verify';

/** The general ledger at a glance: a handful of rows, whatever the number of customers. */
export async function getLedgerOverview(db: DB): Promise<AdminLedgerOverview> {
  // One snapshot, so the figures add up even while payments post.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const bankAccounts = await trx.selectFrom('ledger_accounts').select(['kind', 'name', 'balance']).where('owner_id', 'is', null).orderBy('kind').execute();
      const customers = await trx
        .selectFrom('ledger_accounts')
        .select([sql<string>`coalesce(sum(balance), 0)`.as('total'), sql<string>`count(*)`.as('accounts')])
        .where('owner_id', 'is not', null)
        .executeTakeFirstOrThrow();
      const head = await chainHead(trx);
      const customerBalancesCents = Number(customers.total);
      return {
        bankAccounts: bankAccounts.map((account) => ({ kind: account.kind, name: account.name, balanceCents: account.balance })),
        customerBalancesCents,
        customerAccounts: Number(customers.accounts),
        totalCents: customerBalancesCents + bankAccounts.reduce((sum, account) => sum + account.balance, 0),
        head: { seq: head.position, hash: head.hash },
      };
    });
}

/** Recomputes the chain and every balance (as `npm run ledger:verify` does) and records who ran it. */
export async function runLedgerVerification(db: DB, request: FastifyRequest): Promise<AdminLedgerVerification> {
  const result = await verifyLedger(db);
  const verification: AdminLedgerVerification = {
    ok: result.ok,
    entries: result.entries,
    problem: result.ok ? null : result.problem,
    seq: result.ok ? null : result.seq,
    message: describeVerifyResult(result),
    checkedAt: new Date().toISOString(),
  };
  await audit(db, request, {
    action: 'ledger.verify',
    targetType: 'ledger',
    after: { ok: verification.ok, entries: verification.entries, problem: verification.problem, seq: verification.seq },
  });
  return verification;
}
