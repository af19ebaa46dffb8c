import { kycFileUrl } from '../../shared/contracts/kyc';
import type { UserDto } from '../../shared/contracts/user';
import type { DB } from '../db/database';

/**
 * The KYC part of the spec's user object: the newest submission's document type and files.
 * documentFront is the identity document, documentBack the proof of address; the URLs are
 * authorized reads (owner and staff only), never public links.
 */
export async function userVerification(db: DB, userId: string): Promise<UserDto['verification']> {
  const latest = await db
    .selectFrom('kyc_submissions')
    .select(['document_type', 'document_file_id', 'proof_of_address_file_id'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return null;
  return {
    documentType: latest.document_type,
    documentFront: { url: kycFileUrl(latest.document_file_id) },
    documentBack: { url: kycFileUrl(latest.proof_of_address_file_id) },
  };
}
