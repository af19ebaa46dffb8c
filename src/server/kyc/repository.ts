import { type Selectable, sql } from 'kysely';
import { kycFileUrl } from '../../shared/contracts/kyc';
import type { UserDto } from '../../shared/contracts/user';
import type { DB } from '../db/database';
import { type PageRequest, paginate } from '../db/paginate';
import type { KycDocumentType, KycSubmissionStatus, KycSubmissionsTable, User, VerificationStatus } from '../db/schema';

export type SubmissionRow = Selectable<KycSubmissionsTable>;
export type SubmissionWithCustomer = SubmissionRow & { first_name: string; last_name: string; email: string };

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

function submissionsWithCustomer(db: DB) {
  return db
    .selectFrom('kyc_submissions')
    .innerJoin('users', 'users.id', 'kyc_submissions.user_id')
    .selectAll('kyc_submissions')
    .select(['users.first_name', 'users.last_name', 'users.email']);
}

/** The staff queue: pending ones oldest first (the order they are worked), decided ones newest first. */
export function submissionQueue(db: DB, status: KycSubmissionStatus | 'all', page: PageRequest) {
  let query = submissionsWithCustomer(db)
    .orderBy('kyc_submissions.created_at', status === 'pending' ? 'asc' : 'desc')
    .orderBy('kyc_submissions.id');
  if (status !== 'all') query = query.where('kyc_submissions.status', '=', status);
  return paginate(query, page);
}

export function customerSubmissions(db: DB, userId: string, limit: number): Promise<SubmissionWithCustomer[]> {
  return submissionsWithCustomer(db).where('kyc_submissions.user_id', '=', userId).orderBy('kyc_submissions.created_at', 'desc').limit(limit).execute();
}

export async function verificationStatusOf(db: DB, userId: string): Promise<VerificationStatus | undefined> {
  const row = await db.selectFrom('users').select('verification_status').where('id', '=', userId).executeTakeFirst();
  return row?.verification_status;
}

/** Locks the customer's row and answers their verification status (use inside a transaction). */
export async function lockVerificationStatus(trx: DB, userId: string): Promise<VerificationStatus> {
  const row = await trx.selectFrom('users').select('verification_status').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  return row.verification_status;
}

export function setVerificationStatus(trx: DB, userId: string, status: VerificationStatus): Promise<User> {
  return trx
    .updateTable('users')
    .set({ verification_status: status, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertSubmission(
  trx: DB,
  input: { userId: string; documentType: KycDocumentType; dateOfBirth: string; passportFileId: string; documentFileId: string; proofOfAddressFileId: string },
): Promise<void> {
  await trx
    .insertInto('kyc_submissions')
    .values({
      user_id: input.userId,
      document_type: input.documentType,
      date_of_birth: input.dateOfBirth,
      passport_file_id: input.passportFileId,
      document_file_id: input.documentFileId,
      proof_of_address_file_id: input.proofOfAddressFileId,
    })
    .execute();
}

export function findSubmission(db: DB, id: string): Promise<SubmissionRow | undefined> {
  return db.selectFrom('kyc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks a submission for the decision (use inside a transaction). */
export function lockSubmission(trx: DB, id: string): Promise<SubmissionRow | undefined> {
  return trx.selectFrom('kyc_submissions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Locks the customer's submission waiting for review, if any (at most one: kyc_submissions_one_pending). */
export function lockPendingSubmission(trx: DB, userId: string): Promise<SubmissionRow | undefined> {
  return trx.selectFrom('kyc_submissions').selectAll().where('user_id', '=', userId).where('status', '=', 'pending').forUpdate().executeTakeFirst();
}

/** Locks the customer a decision is about. */
export function lockCustomer(trx: DB, userId: string): Promise<User> {
  return trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
}

export async function decideSubmission(
  trx: DB,
  id: string,
  decision: { status: 'verified' | 'failed'; reason: string | null; reviewedBy: string },
): Promise<void> {
  await trx
    .updateTable('kyc_submissions')
    .set({ status: decision.status, reason: decision.reason, reviewed_by: decision.reviewedBy, reviewed_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Closing or deleting a customer: their identity submissions go (the files with eraseOwnerFiles). */
export async function eraseCustomerKyc(trx: DB, userId: string): Promise<void> {
  await trx.deleteFrom('kyc_submissions').where('user_id', '=', userId).execute();
}
