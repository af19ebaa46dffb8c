import { sql } from 'kysely';
import type { DB } from '../db/database';
import { GENESIS_HASH } from '../ledger/chain';
import type { RecomputedChain } from '../ledger/verify';
import { auditRecordHash, personalHash } from './chain';
import { auditAtText } from './sealer';

// Recomputes the audit trail's hash chain from its first position (ADR 014), as ledger/verify.ts
// does for the ledger's: every chained field, the personal part against its hash where it was not
// erased, and that every record is chained or waiting for the sealer.

export type AuditVerifyResult = (
  | {
      ok: true;
      /** Audit records in the database. */
      records: number;
      /** Of them, on the chain. */
      chained: number;
      /** Committed records the sealer has not chained yet (normally those of the last second). */
      unchained: number;
      /** Records whose personal part was erased (their customer was closed); their hash still verifies. */
      erased: number;
    }
  | { ok: false; problem: string; recordId: number | null; position: number | null }
) & { recomputed: RecomputedChain };

type Failure = { ok: false; problem: string; recordId: number | null; position: number | null };
const PAGE = 2000;

/** Walks the chain; after the first problem it goes on recomputing as far as a wanted position needs. */
async function walkChain(db: DB, wanted: ReadonlySet<number>): Promise<{ failure: Failure | null; recomputed: RecomputedChain }> {
  const lastWanted = Math.max(0, ...wanted);
  const recomputed: RecomputedChain = { length: 0, walkedTo: 0, hashesAt: new Map() };
  let failed: Failure | null = null;
  let prevStored = GENESIS_HASH;
  let prevComputed = GENESIS_HASH;
  let expected = 1;
  const done = (failure: Failure | null = null) => {
    recomputed.walkedTo = expected - 1;
    recomputed.length = Math.max(recomputed.length, expected - 1);
    return { failure: failed ?? failure, recomputed };
  };
  for (;;) {
    const links = await db
      .selectFrom('audit_chain as c')
      .leftJoin('audit_records as r', 'r.id', 'c.audit_id')
      .leftJoin('audit_personal as p', 'p.audit_id', 'c.audit_id')
      .select([
        'c.position',
        'c.audit_id',
        'c.prev_hash',
        'c.hash',
        'r.id',
        auditAtText.as('at'),
        'r.actor_id',
        'r.action',
        'r.target_user_id',
        'r.target_type',
        'r.target_id',
        'r.personal_hash',
        'p.salt',
        'p.data',
      ])
      .where('c.position', '>=', expected)
      .orderBy('c.position')
      .limit(PAGE)
      .execute();
    if (links.length === 0) return done();
    for (const link of links) {
      const position = Number(link.position);
      const auditId = Number(link.audit_id);
      const at = (problem: string): Failure => ({ ok: false, problem: `${problem} (audit chain position ${position})`, recordId: auditId, position });
      if (position !== expected) return done(at(`audit chain gap: expected position ${expected}`));
      if (link.id === null || link.action === null || link.personal_hash === null || link.at === null) return done(at('the chained audit record is missing'));
      if (link.prev_hash !== prevStored) failed ??= at('prev_hash does not match the previous audit record');
      if (link.salt !== null && link.data !== null && personalHash(link.salt, link.data) !== link.personal_hash)
        failed ??= at(`the personal part of audit record ${auditId} does not match its hash`);
      const hash = auditRecordHash(prevComputed, position, {
        id: auditId,
        at: link.at,
        actorId: link.actor_id,
        action: link.action,
        targetUserId: link.target_user_id,
        targetType: link.target_type,
        targetId: link.target_id,
        personalHash: link.personal_hash,
      });
      if (hash !== link.hash) failed ??= at(`audit record ${auditId} does not match its hash`);
      if (wanted.has(position)) recomputed.hashesAt.set(position, hash);
      prevStored = link.hash;
      prevComputed = hash;
      expected += 1;
      if (failed && expected > lastWanted) {
        const last = await db.selectFrom('audit_chain').select('position').orderBy('position', 'desc').limit(1).executeTakeFirst();
        recomputed.length = Number(last?.position ?? 0);
        return done();
      }
    }
  }
}

/**
 * Recomputes the audit chain and checks that every record is chained or waiting, never both, and
 * that personal parts are missing only where erasure is allowed: the record is about (or by) a
 * customer who was closed or deleted. Run it in the caller's snapshot to compare with the ledger.
 * `positions`: the chain positions whose recomputed hash the caller wants (the anchors').
 */
export async function verifyAuditChain(db: DB, options: { positions?: Iterable<number> } = {}): Promise<AuditVerifyResult> {
  const { failure, recomputed } = await walkChain(db, new Set(options.positions ?? []));
  if (failure) return { ...failure, recomputed };
  const coverage = await sql<{ records: string; unchained: string; erased: string; both: string | null; neither: string | null; unexplained: string | null }>`
    select (select count(*) from audit_records) as records,
      (select count(*) from audit_unsealed) as unchained,
      (select count(*) from audit_records r where not exists (select 1 from audit_personal p where p.audit_id = r.id)) as erased,
      (select u.audit_id::text from audit_unsealed u join audit_chain c on c.audit_id = u.audit_id limit 1) as both,
      (select r.id::text from audit_records r where not exists (select 1 from audit_chain c where c.audit_id = r.id)
         and not exists (select 1 from audit_unsealed u where u.audit_id = r.id) limit 1) as neither,
      (select r.id::text from audit_records r
        where not exists (select 1 from audit_personal p where p.audit_id = r.id)
          and not exists (
            select 1 from (values (r.target_user_id), (r.actor_id)) as subject(id)
            where subject.id is not null
              and not exists (select 1 from users u where u.id = subject.id and u.closed_at is null))
        order by r.id limit 1) as unexplained`.execute(db);
  const counts = coverage.rows[0];
  const fail = (problem: string, recordId: string | null): AuditVerifyResult => ({
    ok: false,
    problem,
    recordId: recordId === null ? null : Number(recordId),
    position: null,
    recomputed,
  });
  if (counts?.both) return fail(`audit record ${counts.both} is both chained and waiting to be chained`, counts.both);
  if (counts?.neither) return fail(`audit record ${counts.neither} is neither chained nor waiting to be chained`, counts.neither);
  if (counts?.unexplained)
    return fail(`the personal part of audit record ${counts.unexplained} is missing, but it concerns no closed customer`, counts.unexplained);
  const records = Number(counts?.records ?? 0);
  const unchained = Number(counts?.unchained ?? 0);
  if (records !== recomputed.length + unchained) return fail(`${records} audit records, but ${recomputed.length} chained and ${unchained} waiting`, null);
  return { ok: true, records, chained: recomputed.length, unchained, erased: Number(counts?.erased ?? 0), recomputed };
}

export function describeAuditResult(result: AuditVerifyResult): string {
  if (!result.ok) return `FAILED in the audit trail: ${result.problem}`;
  const erased = result.erased > 0 ? ` (${result.erased} with personal data erased)` : '';
  const tail = result.unchained > 0 ? `, ${result.unchained} newest not chained yet` : '';
  return `${result.chained} audit records on the audit chain${erased}${tail}`;
}
