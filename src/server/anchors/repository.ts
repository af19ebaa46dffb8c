import { sql } from 'kysely';
import type { DB } from '../db/database';
import { paginate, type PageRequest } from '../db/paginate';

// The anchors table: a copy of every line written to ANCHOR_FILE, for the back office's list and
// to cross-check the file (which is the authority).

export interface NewAnchorRow {
  seq: number;
  ledgerPosition: number;
  ledgerHash: string;
  auditPosition: number;
  auditHash: string;
  at: string;
  keyId: string;
  signature: string;
  line: string;
  dailyDate: string | null;
  requestedBy: string | null;
}

export async function insertAnchor(trx: DB, row: NewAnchorRow): Promise<void> {
  await trx
    .insertInto('anchors')
    .values({
      seq: row.seq,
      ledger_position: row.ledgerPosition,
      ledger_hash: row.ledgerHash,
      audit_position: row.auditPosition,
      audit_hash: row.auditHash,
      at: row.at,
      key_id: row.keyId,
      signature: row.signature,
      line: row.line,
      daily_date: row.dailyDate,
      requested_by: row.requestedBy,
    })
    .execute();
}

export async function lastAnchorSeq(db: DB): Promise<number> {
  const row = await db
    .selectFrom('anchors')
    .select(sql<number | null>`max(seq)`.as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

export async function dailyAnchorExists(db: DB, date: string): Promise<boolean> {
  return (await db.selectFrom('anchors').select('seq').where('daily_date', '=', date).executeTakeFirst()) !== undefined;
}

/** Newest first, with the email of the staff member who asked for it. */
export async function anchorPage(db: DB, page: PageRequest) {
  return paginate(
    db
      .selectFrom('anchors as a')
      .leftJoin('users as u', 'u.id', 'a.requested_by')
      .select(['a.seq', 'a.line', 'a.daily_date', 'u.email as requested_by_email'])
      .orderBy('a.seq', 'desc'),
    page,
  );
}

/** Every anchor's seq and signature: verify holds them against ANCHOR_FILE. */
export async function anchorSignatures(db: DB): Promise<Array<{ seq: number; signature: string; at: string }>> {
  const rows = await db.selectFrom('anchors').select(['seq', 'signature', 'at']).orderBy('seq').execute();
  return rows.map((row) => ({ seq: Number(row.seq), signature: row.signature, at: new Date(row.at).toISOString() }));
}
