import { createHash } from 'node:crypto';
import { canonicalJson } from '../ledger/chain';

// The audit trail's hash chain (ADR 014): the same construction as the ledger's (ledger/chain.ts).

/**
 * The salted SHA-256 of a record's personal part, as the database computes it on insert
 * (`audit_personal_hash()` in migration 2026-11-24-40): hex of SHA-256 over the UTF-8 bytes of
 * salt, ':', and the JSON text exactly as stored. The salt keeps a guessed email from being
 * confirmed against the hash once the personal part is erased.
 */
export function personalHash(salt: string, data: string): string {
  return createHash('sha256').update(`${salt}:${data}`, 'utf8').digest('hex');
}

/** The chained part of an audit record: everything but the erasable personal part, which it covers by hash. */
export interface ChainedAuditRecord {
  id: number;
  /** ISO 8601 UTC with microseconds, as stored (`auditAtText` in audit/sealer.ts reads it so). */
  at: string;
  actorId: string | null;
  action: string;
  targetUserId: string | null;
  targetType: string | null;
  targetId: string | null;
  personalHash: string;
}

/** SHA-256 of canonical JSON of the predecessor's hash, the chain position and every chained field. */
export function auditRecordHash(prevHash: string, position: number, record: ChainedAuditRecord): string {
  const body = canonicalJson({
    prev: prevHash,
    position,
    id: record.id,
    at: record.at,
    actorId: record.actorId,
    action: record.action,
    targetUserId: record.targetUserId,
    targetType: record.targetType,
    targetId: record.targetId,
    personalHash: record.personalHash,
  });
  return createHash('sha256').update(body).digest('hex');
}
