import type { CustomerAccountKind, TransactionDto } from '../../shared/contracts/transactions';
import type { PostedEntry } from '../ledger/posting';
import type { AnswerBuilder, NamedAnswer } from '../ledger/writer';
import { assert } from '../lib/errors';

export const TRANSFER_SUCCESS_MESSAGE = 'Transfer Successful';

/** The customer-side line of a just-posted entry for one account. */
export function lineOf(entry: PostedEntry, accountId: string, account: CustomerAccountKind): TransactionDto {
  const posting = entry.postings.find((line) => line.accountId === accountId);
  assert(posting, 'the entry has a line on the account');
  return {
    _id: posting.id,
    entryId: entry.id,
    description: posting.memo ?? entry.description,
    date: entry.valueDate,
    bookedAt: entry.bookedAt.toISOString(),
    amount: Math.abs(posting.amountCents) / 100,
    transactionType: posting.amountCents > 0 ? 'credit' : 'debit',
    account,
    kind: entry.kind,
    status: 'completed',
    reversalOf: entry.reversalOf,
    reversedBy: null,
    counterparty: posting.counterparty,
    balanceAfter: posting.balanceAfterCents / 100,
  };
}

const TRANSFER_LINE = 'transfer-line';

/**
 * What a customer payment answers (the payer's line, "Transfer Successful"), named rather than a
 * function so that another process's writer can build it: a cluster's workers hand their payments
 * to the primary's writer (ledger/cluster.ts), which stores this answer with the entry.
 */
export const transferLine = (accountId: string, account: CustomerAccountKind): NamedAnswer<TransactionDto> => ({
  name: TRANSFER_LINE,
  args: { accountId, account },
});

/** The named answers a writer builds (createAppContext gives them to every writer). */
export const ledgerAnswers: Record<string, AnswerBuilder> = {
  [TRANSFER_LINE]: (posted, args) => {
    const { accountId, account } = args as { accountId: string; account: CustomerAccountKind };
    return { data: lineOf(posted, accountId, account), message: TRANSFER_SUCCESS_MESSAGE, created: true };
  },
};
