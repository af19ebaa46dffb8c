import { BENEFICIARIES_MAX, type BeneficiaryDto } from '../../shared/contracts/beneficiaries';
import type { ActorContext } from '../context';
import { inTransaction } from '../db/transaction';
import { badRequest, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import * as transactions from '../transactions/repository';
import * as repository from './repository';

// Saved payees. Every query filters by the acting customer: another customer's payee id is a 404.

const toBeneficiaryDto = (row: repository.BeneficiaryRow): BeneficiaryDto => ({
  _id: row.id,
  name: row.name,
  accountNumber: row.account_number,
  routingNumber: row.routing_number,
  bankName: row.bank_name,
  createdAt: new Date(row.created_at).toISOString(),
});

export async function myBeneficiaries(ctx: ActorContext): Promise<BeneficiaryDto[]> {
  const rows = await repository.listBeneficiaries(ctx.db, ctx.actor.user.id, BENEFICIARIES_MAX);
  return rows.map(toBeneficiaryDto);
}

/**
 * A payee the transfer form can pay: at another bank with both its routing number and its bank
 * name, or at this bank (neither) with an account that exists here, as the transfer checks it.
 */
async function assertPayable(ctx: ActorContext, payee: repository.NewBeneficiary): Promise<void> {
  if (payee.routingNumber !== '' || payee.bankName !== '') {
    if (payee.routingNumber === '')
      throw badRequest('Please enter the routing number of the bank', { routingNumber: 'Routing number is required for another bank' });
    if (payee.bankName === '') throw badRequest('Please enter the name of the bank', { bankName: 'Bank name is required for another bank' });
    return;
  }
  const account = await transactions.findPayeeByAccountNumber(ctx.db, payee.accountNumber);
  if (!account) {
    throw badRequest('No account at this bank has that number. For an account at another bank, enter its routing number and bank name.', {
      accountNumber: 'No account at this bank has that number',
    });
  }
  // A transfer to it would be refused ('You cannot transfer to the same account'): not a payee to keep.
  if (account.owner_id === ctx.actor.user.id) {
    throw badRequest(OWN_ACCOUNT_PAYEE_MESSAGE, { accountNumber: OWN_ACCOUNT_PAYEE_MESSAGE });
  }
}

export const OWN_ACCOUNT_PAYEE_MESSAGE = 'This is your own account: move money between your savings and checking with Inter Account.';

/** Saving a payee twice is harmless: the answer is the saved one (200 instead of 201). */
export async function saveBeneficiary(ctx: ActorContext, payee: repository.NewBeneficiary): Promise<Outcome<BeneficiaryDto>> {
  const userId = ctx.actor.user.id;
  await assertPayable(ctx, payee);
  const { row, created } = await inTransaction(ctx.db, async (trx) => {
    await repository.lockOwner(trx, userId);
    const existing = await repository.findSavedPayee(trx, userId, payee);
    if (existing) return { row: existing, created: false };
    if ((await repository.countBeneficiaries(trx, userId)) >= BENEFICIARIES_MAX) {
      throw badRequest(`You can save at most ${BENEFICIARIES_MAX} beneficiaries. Please remove one first.`);
    }
    return { row: await repository.insertBeneficiary(trx, userId, payee), created: true };
  });
  return { data: toBeneficiaryDto(row), message: created ? 'Beneficiary saved' : 'This beneficiary is already saved', created };
}

export async function removeBeneficiary(ctx: ActorContext, id: string): Promise<Outcome<{ _id: string }>> {
  const deleted = await repository.deleteBeneficiary(ctx.db, ctx.actor.user.id, id);
  if (!deleted) throw notFound('Beneficiary not found');
  return { data: { _id: deleted }, message: 'Beneficiary removed' };
}
