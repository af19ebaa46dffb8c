import type { AnchorLine } from '../../shared/contracts/anchors';
import { describeAuditResult, verifyAuditChain, type AuditVerifyResult } from '../audit/verify';
import type { Config } from '../config';
import type { DB } from '../db/database';
import { GENESIS_HASH } from '../ledger/chain';
import { describeVerifyResult, verifyLedger, type RecomputedChain, type VerifyResult } from '../ledger/verify';
import { listSigningKeys } from '../signing/repository';
import { verifySignature } from '../signing/keys';
import { readAnchorFile } from './file';
import { anchorMessage, parseAnchorLine } from './format';
import { anchorSignatures } from './repository';

// `npm run ledger:verify` and the back office's verify button (ADR 014): the ledger chain and
// every balance, the audit chain, and every anchor line of ANCHOR_FILE against both chains as
// recomputed from what the database holds now.

export type AnchorsResult =
  { ok: true; count: number; newestAt: string | null } | { ok: false; count: number; problem: string; seq: number | null; failing: number };

export interface BooksVerification {
  ok: boolean;
  ledger: VerifyResult;
  audit: AuditVerifyResult;
  anchors: AnchorsResult;
  /** One line on success; on failure one "FAILED ..." line per part that failed (ledger, audit trail, anchors). */
  lines: string[];
}

type Parsed = { number: number; anchor: AnchorLine } | { number: number; error: string };

const short = (hash: string) => `${hash.slice(0, 16)}...`;

/** What one chain says at an anchored head, or why it no longer says the same. */
function headProblem(name: string, head: AnchorLine['ledgerHead'], chain: RecomputedChain): string | null {
  if (head.position === 0) return head.hash === GENESIS_HASH ? null : `it names position 0 of the ${name} with a hash other than the genesis hash`;
  if (head.position > chain.length) return `it covers position ${head.position} of the ${name}, which now has only ${chain.length}`;
  const recomputed = chain.hashesAt.get(head.position);
  if (recomputed === undefined) return `the ${name} could not be recomputed up to position ${head.position} (it stops at ${chain.walkedTo})`;
  if (recomputed !== head.hash) return `the ${name} at position ${head.position} recomputes to ${short(recomputed)}, the anchor says ${short(head.hash)}`;
  return null;
}

function checkAnchors(
  parsed: Parsed[],
  chains: { ledger: RecomputedChain; audit: RecomputedChain },
  keys: Map<string, string>,
  recorded: Array<{ seq: number; signature: string; at: string }>,
  fileAfter: Map<number, string>,
): AnchorsResult {
  const problems: Array<{ seq: number | null; text: string }> = [];
  let previous = 0;
  let newestAt: string | null = null;
  for (const line of parsed) {
    if ('error' in line) {
      problems.push({ seq: null, text: `line ${line.number} of ANCHOR_FILE is not an anchor (${line.error})` });
      continue;
    }
    const { anchor } = line;
    const name = `anchor ${anchor.seq} (at ${anchor.at}, line ${line.number})`;
    const fail = (text: string) => problems.push({ seq: anchor.seq, text: `${name} ${text}` });
    if (anchor.seq !== previous + 1) fail(`follows anchor ${previous}: a line is missing or out of order`);
    previous = Math.max(previous, anchor.seq);
    newestAt = anchor.at;
    const publicKey = keys.get(anchor.keyId);
    if (!publicKey) {
      fail(`is signed with key ${anchor.keyId}, which is not one the bank signed with (signing_keys)`);
      continue;
    }
    const { signature, ...signed } = anchor;
    if (!verifySignature(publicKey, anchorMessage(signed), signature)) {
      fail(`has a signature that does not verify with key ${anchor.keyId}`);
      continue;
    }
    const ledger = headProblem('ledger chain', anchor.ledgerHead, chains.ledger);
    const audit = headProblem('audit chain', anchor.auditHead, chains.audit);
    if (ledger || audit) fail(`no longer matches: ${[ledger, audit].filter(Boolean).join('; ')}`);
  }
  // The database's copies: each must still be in the file, unchanged (a line removed from the file is found here).
  for (const copy of recorded) {
    const inFile = fileAfter.get(copy.seq);
    if (inFile === undefined)
      problems.push({ seq: copy.seq, text: `anchor ${copy.seq} (at ${copy.at}) is recorded in the database but missing from ANCHOR_FILE` });
    else if (inFile !== copy.signature)
      problems.push({ seq: copy.seq, text: `anchor ${copy.seq} (at ${copy.at}) in ANCHOR_FILE differs from the one recorded in the database` });
  }
  const count = parsed.filter((line) => 'anchor' in line).length;
  const [first] = problems;
  if (!first) return { ok: true, count, newestAt };
  const others = problems.length > 1 ? ` (${problems.length} problems with anchors in all)` : '';
  return { ok: false, count, problem: `${first.text}${others}`, seq: first.seq, failing: problems.length };
}

function parseFile(file: string): Parsed[] {
  return readAnchorFile(file).map((line) => {
    const parsed = parseAnchorLine(line.text);
    return 'anchor' in parsed ? { number: line.number, anchor: parsed.anchor } : { number: line.number, error: parsed.error };
  });
}

/**
 * Recomputes the ledger chain and every balance, the audit chain, and checks every anchor of
 * ANCHOR_FILE: its signature with its key id, and that each chain recomputed from genesis has, at
 * the anchored position, the anchored hash. The file is read before the database snapshot is taken
 * (every head a line names was committed before the line was written, so the snapshot holds it),
 * and read again after it to find the database's copies of anchors written meanwhile.
 */
export async function verifyBooks(db: DB, config: Pick<Config, 'anchorFile'>): Promise<BooksVerification> {
  const parsed = parseFile(config.anchorFile);
  const anchors = parsed.flatMap((line) => ('anchor' in line ? [line.anchor] : []));
  const snapshot = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => ({
      ledger: await verifyLedger(trx, { positions: anchors.map((anchor) => anchor.ledgerHead.position) }),
      audit: await verifyAuditChain(trx, { positions: anchors.map((anchor) => anchor.auditHead.position) }),
      keys: new Map((await listSigningKeys(trx)).map((key) => [key.keyId, key.publicKey])),
      recorded: await anchorSignatures(trx),
    }));
  const fileAfter = new Map(parseFile(config.anchorFile).flatMap((line) => ('anchor' in line ? [[line.anchor.seq, line.anchor.signature] as const] : [])));
  const { ledger, audit } = snapshot;
  const empty: RecomputedChain = { length: 0, walkedTo: 0, hashesAt: new Map() };
  const anchorsResult = checkAnchors(parsed, { ledger: ledger.recomputed ?? empty, audit: audit.recomputed }, snapshot.keys, snapshot.recorded, fileAfter);
  const ok = ledger.ok && audit.ok && anchorsResult.ok;
  return { ok, ledger, audit, anchors: anchorsResult, lines: describeBooks(ledger, audit, anchorsResult) };
}

function describeBooks(ledger: VerifyResult, audit: AuditVerifyResult, anchors: AnchorsResult): string[] {
  if (ledger.ok && audit.ok && anchors.ok) {
    const matched =
      anchors.count === 0 ? 'no anchors yet' : `${anchors.count === 1 ? '1 anchor matches' : `${anchors.count} anchors match`}, newest at ${anchors.newestAt}`;
    return [`${describeVerifyResult(ledger).replace(/\.$/, '')}; ${describeAuditResult(audit)}; ${matched}.`];
  }
  const lines: string[] = [];
  if (!ledger.ok) lines.push(describeVerifyResult(ledger));
  if (!audit.ok) lines.push(describeAuditResult(audit));
  if (!anchors.ok) lines.push(`FAILED: ${anchors.problem}`);
  return lines;
}
