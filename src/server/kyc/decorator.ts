import { kycFileUrl } from '../../shared/contracts/kyc';
import { addUserDecorator } from '../users/presenter';

// The KYC part of the spec's user object: the newest submission's document type and files.
// documentFront is the identity document, documentBack the proof of address; the URLs are
// authorized reads (owner and staff only), never public links.
addUserDecorator(async (db, user, dto) => {
  if (user.is_admin) return;
  const latest = await db
    .selectFrom('kyc_submissions')
    .select(['document_type', 'document_file_id', 'proof_of_address_file_id'])
    .where('user_id', '=', user.id)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest) return;
  dto.verification = {
    documentType: latest.document_type,
    documentFront: { url: kycFileUrl(latest.document_file_id) },
    documentBack: { url: kycFileUrl(latest.proof_of_address_file_id) },
  };
});
