import { assert } from '../lib/errors';

/** The first line of every signed statement message: names the format, so a later one can differ. */
export const STATEMENT_SIGNATURE_FORMAT = 'ledgerline-statement-signature-v1';

/** What the bank signs for a statement: every field the verifier answers, plus the hash of the bytes. */
export interface SignedStatementFields {
  statementId: string;
  keyId: string;
  /** ISO 8601 in UTC with milliseconds (Date.toISOString()). */
  issuedAt: string;
  customerName: string;
  accountNumberMasked: string;
  account: 'savings' | 'checking';
  /** YYYY-MM in the bank's time zone. */
  period: string;
  /** SHA-256 of the exact PDF bytes, lowercase hex. */
  sha256: string;
  ledgerChainPosition: number;
  ledgerChainHash: string;
}

/**
 * The signed message, a canonical string anyone can rebuild offline from the verifier's answer
 * (or from the PDF they hold and its SHA-256): UTF-8, one `name: value` per line in exactly this
 * order, lines joined by a single LF, no trailing newline, no spaces other than the one after each
 * colon and those inside the customer's name. The Ed25519 signature (base64) is over these bytes.
 * docs/decisions/015-verifiable-statements.md documents it with an example.
 */
export function statementMessage(fields: SignedStatementFields): string {
  const lines = [
    STATEMENT_SIGNATURE_FORMAT,
    `statement-id: ${fields.statementId}`,
    `key-id: ${fields.keyId}`,
    `issued-at: ${fields.issuedAt}`,
    `customer-name: ${fields.customerName}`,
    `account-number-masked: ${fields.accountNumberMasked}`,
    `account: ${fields.account}`,
    `period: ${fields.period}`,
    `sha256: ${fields.sha256}`,
    `ledger-chain-position: ${fields.ledgerChainPosition}`,
    `ledger-chain-hash: ${fields.ledgerChainHash}`,
  ];
  // A line break inside a value would let two different statements share a message.
  for (const line of lines) assert(!/[\r\n]/.test(line), 'a signed statement field is one line');
  assert(/^[0-9a-f]{64}$/.test(fields.sha256) && /^[0-9a-f]{64}$/.test(fields.ledgerChainHash), 'hashes are lowercase hex SHA-256');
  assert(/^\d{4}-\d{2}$/.test(fields.period) && !Number.isNaN(Date.parse(fields.issuedAt)), 'the period and issue time are well formed');
  return lines.join('\n');
}
