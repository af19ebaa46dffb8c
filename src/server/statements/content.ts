import { assert } from '../lib/errors';
import type { LedgerLine } from './repository';

/** What a statement says, checked against itself: every figure printed comes from here. */
export interface StatementFigures {
  lines: LedgerLine[];
  openingCents: number;
  closingCents: number;
  totalInCents: number;
  totalOutCents: number;
}

/**
 * Adds up a run of one account's postings (in seq order) from the balance before the first one,
 * asserting what the ledger guarantees (TigerBeetle style: an invariant is checked where it is
 * used): each running balance is the one before plus the line's amount, the totals in and out
 * take the opening balance to the closing one, and the closing balance is the last line's.
 * `ledger` is the same range counted and summed by PostgreSQL on its own: the lines read must
 * be all of them.
 */
export function statementFigures(openingCents: number, lines: LedgerLine[], ledger: { count: number; sumCents: number }): StatementFigures {
  let balanceCents = openingCents;
  let totalInCents = 0;
  let totalOutCents = 0;
  let previousSeq = -1;
  for (const line of lines) {
    assert(line.seq > previousSeq, 'statement lines are in the order the ledger applied them');
    assert(Number.isSafeInteger(line.amountCents) && line.amountCents !== 0, 'a line moves a whole, non-zero number of cents');
    balanceCents += line.amountCents;
    assert(line.balanceAfterCents === balanceCents, `the running balance after posting ${line.postingId} is the one before plus its amount`);
    if (line.amountCents > 0) totalInCents += line.amountCents;
    else totalOutCents -= line.amountCents;
    previousSeq = line.seq;
  }
  const closingCents = lines.at(-1)?.balanceAfterCents ?? openingCents;
  assert(openingCents + totalInCents - totalOutCents === closingCents, 'opening + money in - money out = closing');
  assert(ledger.count === lines.length, 'the statement has every posting of its range');
  assert(ledger.sumCents === totalInCents - totalOutCents, "the statement's totals are the ledger's sum of the range");
  return { lines, openingCents, closingCents, totalInCents, totalOutCents };
}
