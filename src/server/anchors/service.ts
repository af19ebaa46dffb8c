import { sql } from 'kysely';
import type { AnchorDto, AnchorList } from '../../shared/contracts/anchors';
import { audit } from '../audit/audit';
import { auditChainHead, sealAuditAll } from '../audit/sealer';
import type { ActorContext, AppContext } from '../context';
import type { PageRequest } from '../db/paginate';
import { inTransaction } from '../db/transaction';
import { chainHead, sealAll } from '../ledger/sealer';
import { bankDate } from '../lib/bank-time';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { anchorMail, brandOf } from '../mail/templates';
import { registerSigningKey } from '../signing/repository';
import { appendAnchorLine, lastSeqInFile } from './file';
import { anchorLineText, anchorMessage, parseAnchorLine } from './format';
import * as repository from './repository';

// Anchors (ADR 014): the heads of the ledger chain and the audit chain, signed with the bank's key,
// appended as one line to ANCHOR_FILE (outside the database) and mailed to ANCHOR_EMAIL. A daily
// job and the back office's "Anchor now" write them.

/** One anchor writer at a time, across every process and instance (not the sealers' locks). */
const ANCHOR_LOCK_KEY = 4_812_003;
/** How long a run waits for another run to finish before it gives up (the job is retried). */
const ANCHOR_LOCK_TIMEOUT = '30s';

export type AnchorContext = Pick<AppContext, 'db' | 'config' | 'signer' | 'clock'>;

function toAnchorDto(line: string, dailyDate: string | null, requestedBy: string | null): AnchorDto {
  const parsed = parseAnchorLine(line);
  if ('error' in parsed) throw new Error(`a stored anchor line is malformed: ${parsed.error}`);
  return { ...parsed.anchor, line, dailyDate, requestedBy };
}

/**
 * Writes one anchor: seals what is committed (so the anchor covers it), then, holding the anchor
 * lock, takes the next seq (after the database's and the file's highest), reads both chain heads,
 * signs them, records the anchor (and the staff action, and the mail to ANCHOR_EMAIL) and appends
 * the line to ANCHOR_FILE last, just before the commit. A daily run whose bank date is already
 * anchored writes nothing and answers null, so a run is done once whichever process gets there.
 * The file is the authority: if the commit fails after the append, the line stays valid (its heads
 * were committed before) and the next anchor follows its seq.
 */
export async function writeAnchor(
  ctx: AnchorContext,
  options: { dailyDate?: string; actor?: { user: { id: string; email: string }; ip?: string | null } } = {},
): Promise<AnchorDto | null> {
  await sealAll(ctx.db);
  await sealAuditAll(ctx.db);
  return inTransaction(ctx.db, async (trx) => {
    await sql`select set_config('lock_timeout', ${ANCHOR_LOCK_TIMEOUT}, true)`.execute(trx);
    await sql`select pg_advisory_xact_lock(${ANCHOR_LOCK_KEY})`.execute(trx);
    if (options.dailyDate && (await repository.dailyAnchorExists(trx, options.dailyDate))) return null;
    const seq = Math.max(await repository.lastAnchorSeq(trx), lastSeqInFile(ctx.config.anchorFile)) + 1;
    const [ledgerHead, auditHead] = [await chainHead(trx), await auditChainHead(trx)];
    const unsigned = { seq, ledgerHead, auditHead, at: ctx.clock.now().toISOString(), keyId: ctx.signer.keyId };
    const anchor = { ...unsigned, signature: ctx.signer.sign(anchorMessage(unsigned)) };
    const line = anchorLineText(anchor);
    await registerSigningKey(trx, ctx.signer);
    await repository.insertAnchor(trx, {
      seq,
      ledgerPosition: ledgerHead.position,
      ledgerHash: ledgerHead.hash,
      auditPosition: auditHead.position,
      auditHash: auditHead.hash,
      at: anchor.at,
      keyId: anchor.keyId,
      signature: anchor.signature,
      line,
      dailyDate: options.dailyDate ?? null,
      requestedBy: options.actor?.user.id ?? null,
    });
    if (options.actor) {
      await audit(trx, options.actor, {
        action: 'ledger.anchor',
        targetType: 'anchor',
        targetId: String(seq),
        after: { seq, ledgerHead, auditHead, at: anchor.at },
      });
    }
    if (ctx.config.anchorEmail) await queueMail({ db: trx, config: ctx.config }, anchorMail(brandOf(ctx.config), ctx.config.anchorEmail, anchor, line));
    appendAnchorLine(ctx.config.anchorFile, line);
    return { ...anchor, line, dailyDate: options.dailyDate ?? null, requestedBy: options.actor?.user.email ?? null };
  });
}

/** The scheduled task (jobs/registry.ts). */
export const ANCHOR_DAILY_TASK = 'anchor_daily';

/** The daily job: anchors once per bank day (BANK_TIMEZONE), whichever process runs it first. */
export async function runDailyAnchor(ctx: AnchorContext): Promise<AnchorDto | null> {
  return writeAnchor(ctx, { dailyDate: bankDate(ctx.clock.now(), ctx.config.timeZone) });
}

/** "Anchor now" in the back office (audited). */
export async function anchorNow(ctx: ActorContext): Promise<Outcome<AnchorDto>> {
  const anchor = await writeAnchor(ctx, { actor: ctx.actor });
  if (!anchor) throw new Error('an anchor asked for by staff is always written');
  return {
    data: anchor,
    created: true,
    message: `Anchor ${anchor.seq} written: ledger chain at position ${anchor.ledgerHead.position}, audit chain at position ${anchor.auditHead.position}.`,
  };
}

export async function listAnchors(ctx: AppContext, page: PageRequest): Promise<AnchorList> {
  const result = await repository.anchorPage(ctx.db, page);
  return { ...result, items: result.items.map((row) => toAnchorDto(row.line, row.daily_date, row.requested_by_email)) };
}
