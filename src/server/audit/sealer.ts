import { sql } from 'kysely';
import type { DB } from '../db/database';
import { inTransaction } from '../db/transaction';
import { assert } from '../lib/errors';
import { GENESIS_HASH } from '../ledger/chain';
import { type ChainHead, SEAL_BATCH_MAX } from '../ledger/sealer';
import { auditRecordHash, type ChainedAuditRecord } from './chain';

// Chains committed audit records after commit, as the ledger's sealer chains entries (ADR 008,
// ADR 014): writers only insert (through the audit_log view, which queues the record in
// audit_unsealed); one process at a time, whichever holds the advisory lock, chains them in batches.

/** Records chained per sealing transaction: the ledger's batch, so the shared loop knows a full round. */
export const AUDIT_SEAL_BATCH_MAX = SEAL_BATCH_MAX;
/** Not the ledger sealer's lock (4812001): the two chains seal independently. */
const AUDIT_SEAL_LOCK_KEY = 4_812_002;

/** `at` as hashed: ISO 8601 UTC with the microseconds PostgreSQL stores (a JS Date would drop them). */
export const auditAtText = sql<string>`to_char(r.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export async function auditChainHead(db: DB): Promise<ChainHead> {
  const head = await db.selectFrom('audit_chain').select(['position', 'hash']).orderBy('position', 'desc').limit(1).executeTakeFirst();
  return head ? { position: Number(head.position), hash: head.hash } : { position: 0, hash: GENESIS_HASH };
}

/** The chained part of audit records as stored, by id. */
export async function loadChainedRecords(db: DB, ids: number[]): Promise<Map<number, ChainedAuditRecord>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('audit_records as r')
    .select(['r.id', auditAtText.as('at'), 'r.actor_id', 'r.action', 'r.target_user_id', 'r.target_type', 'r.target_id', 'r.personal_hash'])
    .where('r.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        at: row.at,
        actorId: row.actor_id,
        action: row.action,
        targetUserId: row.target_user_id,
        targetType: row.target_type,
        targetId: row.target_id,
        personalHash: row.personal_hash,
      },
    ]),
  );
}

/**
 * Chains committed audit records not chained yet, oldest id first: each gets the next position and
 * the hash of its chained part (personal part by its hash) and its predecessor's hash. Returns how
 * many it chained, or null when another process is sealing.
 */
export async function sealAuditPending(db: DB, batchMax = AUDIT_SEAL_BATCH_MAX): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    const lock = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${AUDIT_SEAL_LOCK_KEY}) as got`.execute(trx);
    if (!lock.rows[0]?.got) return null;
    const pending = await trx.selectFrom('audit_unsealed').select('audit_id').orderBy('audit_id').limit(batchMax).execute();
    if (pending.length === 0) return 0;
    const ids = pending.map((row) => Number(row.audit_id));
    const records = await loadChainedRecords(trx, ids);
    let { position, hash: prevHash } = await auditChainHead(trx);
    const rows = ids.map((id) => {
      const record = records.get(id);
      assert(record, 'an unsealed audit record exists');
      position += 1;
      const hash = auditRecordHash(prevHash, position, record);
      const row = { position, auditId: id, prevHash, hash };
      prevHash = hash;
      return row;
    });
    await sql`
      insert into audit_chain (position, audit_id, prev_hash, hash)
      select * from unnest(${rows.map((row) => row.position)}::bigint[], ${rows.map((row) => row.auditId)}::bigint[],
        ${rows.map((row) => row.prevHash)}::text[], ${rows.map((row) => row.hash)}::text[])`.execute(trx);
    await trx.deleteFrom('audit_unsealed').where('audit_id', 'in', ids).execute();
    return rows.length;
  });
}

/** Seals until nothing is left (tests, anchoring, shutdown); waits for a sealer at work elsewhere. */
export async function sealAuditAll(db: DB): Promise<number> {
  let total = 0;
  for (;;) {
    const sealed = await sealAuditPending(db);
    if (sealed === null) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    total += sealed;
    if (sealed < AUDIT_SEAL_BATCH_MAX) return total;
  }
}
