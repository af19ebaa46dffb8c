import { type AnchorLine, ZAnchorLine } from '../../shared/contracts/anchors';

// The anchor line and the text its signature covers (ADR 014). Both are contracts with whoever
// keeps a copy of ANCHOR_FILE: change them only with a new version tag.

/** The first line of the signed text: names the format, so a future format can never be mistaken for this one. */
export const ANCHOR_FORMAT = 'ledgerline-anchor-v1';

/**
 * The canonical text an anchor's signature covers: six lines joined by "\n" (no trailing newline),
 * ASCII, in this order:
 *
 *     ledgerline-anchor-v1
 *     seq=<seq>
 *     ledger=<ledgerHead.position>:<ledgerHead.hash>
 *     audit=<auditHead.position>:<auditHead.hash>
 *     at=<at>
 *     keyId=<keyId>
 *
 * The signature is Ed25519 over its UTF-8 bytes, base64 in the line. Anyone holding the public key
 * (signing_keys, or `npm run signing-key`'s output) can check a line with these few lines of code.
 */
export function anchorMessage(anchor: Omit<AnchorLine, 'signature'>): string {
  return [
    ANCHOR_FORMAT,
    `seq=${anchor.seq}`,
    `ledger=${anchor.ledgerHead.position}:${anchor.ledgerHead.hash}`,
    `audit=${anchor.auditHead.position}:${anchor.auditHead.hash}`,
    `at=${anchor.at}`,
    `keyId=${anchor.keyId}`,
  ].join('\n');
}

/** The line as appended to ANCHOR_FILE (without its newline): JSON with the keys in this order. */
export function anchorLineText(anchor: AnchorLine): string {
  const { seq, ledgerHead, auditHead, at, keyId, signature } = anchor;
  return JSON.stringify({
    seq,
    ledgerHead: { position: ledgerHead.position, hash: ledgerHead.hash },
    auditHead: { position: auditHead.position, hash: auditHead.hash },
    at,
    keyId,
    signature,
  });
}

/** A line of ANCHOR_FILE read back: the anchor, or why it is not one. */
export function parseAnchorLine(text: string): { anchor: AnchorLine } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'not JSON' };
  }
  const parsed = ZAnchorLine.safeParse(value);
  if (!parsed.success) return { error: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'line'}: ${issue.message}`).join('; ') };
  return { anchor: parsed.data };
}
