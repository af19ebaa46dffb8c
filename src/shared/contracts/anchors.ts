import { z } from 'zod';
import { envelope, paginated, ZPage, ZTimestamp } from './common';

// Anchors: the heads of the ledger chain and the audit chain, signed with the bank's key and
// appended as one JSON line to ANCHOR_FILE (docs/decisions/014-audit-chain-and-anchors.md).

/** The last chained row of a chain when the anchor was written: its position (0: empty chain) and its hash. */
export const ZChainHead = z.strictObject({
  position: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('Its position (0: an empty chain).'),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'hash must be 64 lower-case hex characters')
    .describe('Its hash, hex.'),
});
export type ChainHeadDto = z.infer<typeof ZChainHead>;

/**
 * One line of ANCHOR_FILE, exactly these keys: `seq` counts anchors from 1 with no gap; `at` is
 * when it was written (ISO 8601 UTC); `keyId` names the public key in signing_keys; `signature` is
 * the base64 Ed25519 signature of the canonical text (server/anchors/format.ts, `anchorMessage`).
 */
export const ZAnchorLine = z.strictObject({
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe('Counts anchors from 1, with no gap.'),
  ledgerHead: ZChainHead.describe("The ledger chain's last row."),
  auditHead: ZChainHead.describe("The audit chain's last row."),
  at: z.iso.datetime({ precision: 3, message: 'at must be an ISO 8601 UTC time with milliseconds' }).describe('When it was written (ISO 8601, UTC).'),
  keyId: z
    .string()
    .regex(/^[0-9a-f]{16}$/, 'keyId must be 16 lower-case hex characters')
    .describe("The signing key's id (GET /api/statements/public-key)."),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]{86}==$/, 'signature must be a base64 Ed25519 signature')
    .describe('The base64 Ed25519 signature of the canonical text (ADR 014).'),
});
export type AnchorLine = z.infer<typeof ZAnchorLine>;

export const ZAnchor = ZAnchorLine.extend({
  /** The line as appended to ANCHOR_FILE. */
  line: z.string(),
  /** The daily job's bank date (BANK_TIMEZONE), or null for "Anchor now". */
  dailyDate: z.string().nullable(),
  /** The staff member who pressed "Anchor now" (null: the daily job). */
  requestedBy: z.string().nullable(),
});
export type AnchorDto = z.infer<typeof ZAnchor>;

export const ZAnchorListQuery = ZPage;
export type AnchorListQuery = z.input<typeof ZAnchorListQuery>;
export const ZAnchorList = paginated(ZAnchor);
export type AnchorList = z.infer<typeof ZAnchorList>;

export const ZAnchorListAnswer = envelope(ZAnchorList);
export const ZAnchorAnswer = envelope(ZAnchor);

/** What the back office shows after a verification, as `npm run ledger:verify` prints it. */
export const ZAnchorsChecked = z.object({ count: z.number().int(), newestAt: ZTimestamp.nullable() });
