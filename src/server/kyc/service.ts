import type { Paginated } from '../../shared/contracts/common';
import {
  KYC_FILE_FIELDS,
  KYC_SUCCESS_MESSAGE,
  kycFileUrl,
  type KycSubmissionDto,
  type KycTextFields,
  type KYC_SUBMISSION_STATUSES,
} from '../../shared/contracts/kyc';
import type { UserDto } from '../../shared/contracts/user';
import { audit } from '../audit/audit';
import { type ActorContext, withDb } from '../context';
import type { DB } from '../db/database';
import type { PageRequest } from '../db/paginate';
import type { StoredFilePurpose, User, VerificationStatus } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { fileMediaTypes, findStoredFile, recordFile } from '../files/repository';
import { type PreparedFile, prepareUpload, readStoredFile, type StoredFileContent, storeFiles, type UploadedFile } from '../files/service';
import { assert, conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, plainMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import * as repository from './repository';

const UNDER_REVIEW_MESSAGE = 'Your documents are already under review. We will email you when they have been checked.';
const KYC_FILE_PURPOSES: readonly StoredFilePurpose[] = ['kyc_passport', 'kyc_document', 'kyc_proof_of_address'];
/** A customer's history in the back office: their newest submissions. */
const CUSTOMER_SUBMISSIONS_MAX = 20;

/** The identity form, read and checked against its contract by the route. */
export interface KycForm {
  fields: KycTextFields;
  files: Record<(typeof KYC_FILE_FIELDS)[number], UploadedFile>;
}

async function toSubmissionDtos(db: DB, rows: repository.SubmissionWithCustomer[]): Promise<KycSubmissionDto[]> {
  const mediaTypes = await fileMediaTypes(
    db,
    rows.flatMap((row) => [row.passport_file_id, row.document_file_id, row.proof_of_address_file_id]),
  );
  const file = (id: string) => ({ id, url: kycFileUrl(id), mediaType: mediaTypes.get(id) ?? 'application/octet-stream' });
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    customer: { firstName: row.first_name, lastName: row.last_name, email: row.email },
    documentType: row.document_type,
    dateOfBirth: row.date_of_birth,
    status: row.status,
    reason: row.reason,
    passportImage: file(row.passport_file_id),
    document: file(row.document_file_id),
    proofOfAddress: file(row.proof_of_address_file_id),
    reviewedAt: row.reviewed_at ? new Date(row.reviewed_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/**
 * A customer sends their identity documents: checked by their bytes, stored, and the customer is
 * pending review until staff decide. One submission at a time: the status is checked again under
 * a lock, so two submissions at once cannot both pass.
 */
export async function submitVerification(ctx: ActorContext, form: KycForm): Promise<Outcome<UserDto>> {
  const user = ctx.actor.user;
  if (user.verification_status === 'verified') throw conflict('Your identity is already verified.');
  if (user.verification_status === 'pending') throw conflict(UNDER_REVIEW_MESSAGE);
  const passport = await prepareUpload(form.files.passportImageFile, 'image', 'The passport image');
  const document = await prepareUpload(form.files.documentFile, 'image_or_pdf', 'The document file');
  const proof = await prepareUpload(form.files.proofOfAddressFile, 'image_or_pdf', 'The proof of address');
  const updated = await storeFiles(ctx, [passport, document, proof], ([passportName, documentName, proofName]) => {
    assert(passportName && documentName && proofName, 'three files written');
    return inTransaction(ctx.db, async (trx) => {
      const status = await repository.lockVerificationStatus(trx, user.id);
      if (status === 'pending' || status === 'verified') throw conflict(UNDER_REVIEW_MESSAGE);
      const record = (storageName: string, purpose: StoredFilePurpose, file: PreparedFile) =>
        recordFile(trx, { ownerId: user.id, purpose, storageName, mediaType: file.mediaType, sizeBytes: file.bytes.length });
      await repository.insertSubmission(trx, {
        userId: user.id,
        documentType: form.fields.documentType,
        dateOfBirth: form.fields.dateOfBirth,
        passportFileId: await record(passportName, 'kyc_passport', passport),
        documentFileId: await record(documentName, 'kyc_document', document),
        proofOfAddressFileId: await record(proofName, 'kyc_proof_of_address', proof),
      });
      await queueMail(
        withDb(ctx, trx),
        plainMail(
          brandOf(ctx.config),
          user.email,
          'we received your documents',
          `Hello ${user.first_name},\n\nThank you: we received your identity documents. Our staff will check them, usually within 1-3 business days, and email you the result.`,
        ),
      );
      return repository.setVerificationStatus(trx, user.id, 'pending');
    });
  });
  return { data: await toUserDto(ctx.db, updated), message: KYC_SUCCESS_MESSAGE, created: true };
}

/**
 * A KYC file: its owner and staff may read it; for anyone else it does not exist. Identity
 * documents are the most sensitive data the bank keeps: every staff read is recorded.
 */
export async function readKycFile(ctx: ActorContext, fileId: string): Promise<StoredFileContent> {
  const viewer = ctx.actor.user;
  const file = await findStoredFile(ctx.db, fileId, KYC_FILE_PURPOSES);
  if (!file || (file.owner_id !== viewer.id && !viewer.is_admin)) throw notFound();
  if (viewer.id !== file.owner_id) {
    await audit(ctx.db, ctx.actor, { action: 'kyc.view_document', targetUserId: file.owner_id, targetType: 'stored_file', targetId: file.id });
  }
  return readStoredFile(ctx, file, file.purpose.replace('kyc_', 'kyc-'));
}

export async function kycQueue(
  ctx: ActorContext,
  status: (typeof KYC_SUBMISSION_STATUSES)[number] | 'all',
  page: PageRequest,
): Promise<Paginated<KycSubmissionDto>> {
  const result = await repository.submissionQueue(ctx.db, status, page);
  return { ...result, items: await toSubmissionDtos(ctx.db, result.items) };
}

/** A customer's verification status and newest submissions, for staff. */
export async function customerKyc(ctx: ActorContext, userId: string): Promise<{ verificationStatus: VerificationStatus; submissions: KycSubmissionDto[] }> {
  const verificationStatus = await repository.verificationStatusOf(ctx.db, userId);
  if (!verificationStatus) throw notFound();
  const rows = await repository.customerSubmissions(ctx.db, userId, CUSTOMER_SUBMISSIONS_MAX);
  return { verificationStatus, submissions: await toSubmissionDtos(ctx.db, rows) };
}

type Decision = { userId: string; verificationStatus: VerificationStatus };

/** The reason recorded when staff fail a customer's pending documents by setting the status on the user page. */
export const STATUS_SET_REASON = 'Verification status set to failed by staff on the customer page';

/**
 * Records a decision on a pending submission inside the caller's transaction (ctx.db): the
 * submission and the customer's verification status change together, so they never disagree; the
 * decision is audited and the customer emailed. Both ways in share it: the review queue's approve
 * and reject, and a staff member setting the status on the user page (PUT /user/admin/:id).
 */
export async function recordDecision(
  ctx: ActorContext,
  submission: repository.SubmissionRow,
  customer: User,
  decision: 'verified' | 'failed',
  reason: string | null,
): Promise<User> {
  assert(submission.status === 'pending' && submission.user_id === customer.id, 'a decision is on the customer’s pending submission');
  await repository.decideSubmission(ctx.db, submission.id, { status: decision, reason, reviewedBy: ctx.actor.user.id });
  const updated = await repository.setVerificationStatus(ctx.db, customer.id, decision);
  await audit(ctx.db, ctx.actor, {
    action: decision === 'verified' ? 'kyc.approve' : 'kyc.reject',
    targetUserId: customer.id,
    targetType: 'kyc_submission',
    targetId: submission.id,
    before: { verificationStatus: customer.verification_status, submissionStatus: submission.status },
    after: { verificationStatus: decision, submissionStatus: decision },
    reason,
  });
  const text =
    decision === 'verified'
      ? `Hello ${updated.first_name},\n\nYour identity has been verified. Thank you for completing your account setup.`
      : `Hello ${updated.first_name},\n\nWe could not verify your identity with the documents you sent.\n\nReason: ${reason}\n\nPlease sign in and submit your documents again at ${ctx.config.publicUrl}/account/kyc-verification.`;
  await queueMail(
    ctx,
    plainMail(brandOf(ctx.config), updated.email, decision === 'verified' ? 'your identity is verified' : 'we could not verify your identity', text),
  );
  return updated;
}

/** Staff decide a pending submission (audited); the customer is emailed the result. */
async function decide(ctx: ActorContext, submissionId: string, decision: 'verified' | 'failed', reason: string | null): Promise<Outcome<Decision>> {
  const customer = await inTransaction(ctx.db, async (trx) => {
    // The customer first, then the submission: the order a status change on the user page locks them in.
    const found = await repository.findSubmission(trx, submissionId);
    if (!found) throw notFound();
    const before = await repository.lockCustomer(trx, found.user_id);
    const submission = await repository.lockSubmission(trx, submissionId);
    if (!submission) throw notFound();
    if (submission.status !== 'pending') throw conflict(`This submission was already ${submission.status === 'verified' ? 'approved' : 'rejected'}.`);
    return recordDecision(withDb(ctx, trx), submission, before, decision, reason);
  });
  return {
    data: { userId: customer.id, verificationStatus: customer.verification_status },
    message:
      decision === 'verified' ? 'Verification approved. The customer has been emailed.' : 'Verification rejected. The customer has been emailed the reason.',
  };
}

export const approveSubmission = (ctx: ActorContext, submissionId: string) => decide(ctx, submissionId, 'verified', null);
export const rejectSubmission = (ctx: ActorContext, submissionId: string, reason: string) => decide(ctx, submissionId, 'failed', reason);
