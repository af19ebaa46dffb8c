import { type Selectable, sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  KYC_FILE_FIELDS,
  KYC_REQUIRED_MESSAGE,
  KYC_SUCCESS_MESSAGE,
  KYC_TEXT_FIELDS,
  kycFileUrl,
  type KycSubmissionDto,
  ZKycQueueQuery,
  ZKycRejectRequest,
  ZKycTextFields,
} from '../../shared/contracts/kyc';
import { audit } from '../audit/audit';
import { currentUser, requireAdmin, requireCustomer, requireUser } from '../auth/sessions';
import type { DB } from '../db/database';
import type { KycSubmissionsTable, StoredMediaType } from '../db/schema';
import { discardFiles, prepareUpload, readMultipart, recordFile, sendStoredFile, writeFiles } from '../files/storage';
import { AppError, badRequest, parseInput } from '../lib/errors';
import { perMinute } from '../plugins/rate-limit';
import { plainMail } from '../mail/templates';
import { toUserDto } from '../users/service';

type SubmissionRow = Selectable<KycSubmissionsTable> & { first_name: string; last_name: string; email: string };

const notFound = () => new AppError('not_found', 'Not found');

function uuidParam(params: unknown, key: string): string {
  const parsed = z.object({ [key]: z.uuid() }).safeParse(params);
  if (!parsed.success) throw notFound();
  return parsed.data[key] as string;
}

function submissionsQuery(db: DB) {
  return db
    .selectFrom('kyc_submissions')
    .innerJoin('users', 'users.id', 'kyc_submissions.user_id')
    .selectAll('kyc_submissions')
    .select(['users.first_name', 'users.last_name', 'users.email']);
}

async function toDtos(db: DB, rows: SubmissionRow[]): Promise<KycSubmissionDto[]> {
  const fileIds = rows.flatMap((row) => [row.passport_file_id, row.document_file_id, row.proof_of_address_file_id]);
  const files = fileIds.length ? await db.selectFrom('stored_files').select(['id', 'media_type']).where('id', 'in', fileIds).execute() : [];
  const mediaType = new Map<string, StoredMediaType>(files.map((file) => [file.id, file.media_type]));
  const file = (id: string) => ({ id, url: kycFileUrl(id), mediaType: mediaType.get(id) ?? 'application/octet-stream' });
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

export async function kycRoutes(app: FastifyInstance): Promise<void> {
  const brand = () => ({ bankName: app.config.bankName, publicUrl: app.config.publicUrl });

  app.post('/user/verification', { preHandler: requireCustomer, config: perMinute(10) }, async (request, reply) => {
    const user = currentUser(request);
    if (user.verification_status === 'verified') throw new AppError('conflict', 'Your identity is already verified.');
    if (user.verification_status === 'pending')
      throw new AppError('conflict', 'Your documents are already under review. We will email you when they have been checked.');
    const form = await readMultipart(request, { files: [...KYC_FILE_FIELDS], fields: [...KYC_TEXT_FIELDS] });
    const missing = [...KYC_FILE_FIELDS.filter((field) => !form.files.has(field)), ...KYC_TEXT_FIELDS.filter((field) => !form.fields[field]?.trim())];
    if (missing.length > 0) throw badRequest(KYC_REQUIRED_MESSAGE, Object.fromEntries(missing.map((field) => [field, 'Required'])));
    const fields = parseInput(ZKycTextFields, form.fields);
    const passport = await prepareUpload(form.files.get('passportImageFile')!, 'image', 'The passport image');
    const document = await prepareUpload(form.files.get('documentFile')!, 'image_or_pdf', 'The document file');
    const proof = await prepareUpload(form.files.get('proofOfAddressFile')!, 'image_or_pdf', 'The proof of address');
    const names = await writeFiles(app, [passport, document, proof]);
    const [passportName, documentName, proofName] = names as [string, string, string];
    let updated;
    try {
      updated = await app.db.transaction().execute(async (trx) => {
        // Re-read under a lock: two submissions at once must not both pass the status check.
        const locked = await trx.selectFrom('users').select('verification_status').where('id', '=', user.id).forUpdate().executeTakeFirstOrThrow();
        if (locked.verification_status === 'pending' || locked.verification_status === 'verified') {
          throw new AppError('conflict', 'Your documents are already under review. We will email you when they have been checked.');
        }
        const record = (storageName: string, purpose: 'kyc_passport' | 'kyc_document' | 'kyc_proof_of_address', file: typeof passport) =>
          recordFile(trx, { ownerId: user.id, purpose, storageName, mediaType: file.mediaType, sizeBytes: file.buffer.length });
        const passportId = await record(passportName, 'kyc_passport', passport);
        const documentId = await record(documentName, 'kyc_document', document);
        const proofId = await record(proofName, 'kyc_proof_of_address', proof);
        await trx
          .insertInto('kyc_submissions')
          .values({
            user_id: user.id,
            document_type: fields.documentType,
            date_of_birth: fields.dateOfBirth,
            passport_file_id: passportId,
            document_file_id: documentId,
            proof_of_address_file_id: proofId,
          })
          .execute();
        return trx
          .updateTable('users')
          .set({ verification_status: 'pending', updated_at: sql`now()` })
          .where('id', '=', user.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    } catch (error) {
      await discardFiles(app, names);
      throw error;
    }
    await app.mailer
      .send(
        plainMail(
          brand(),
          user.email,
          'we received your documents',
          `Hello ${user.first_name},\n\nThank you: we received your identity documents. Our staff will check them, usually within 1-3 business days, and email you the result.`,
        ),
      )
      .catch((error: unknown) => request.log.error({ err: error }, 'KYC receipt mail failed'));
    return reply.status(201).send({ data: await toUserDto(app.db, updated), message: KYC_SUCCESS_MESSAGE });
  });

  // A KYC file: its owner and staff may read it; for anyone else it does not exist.
  app.get('/user/verification/files/:fileId', { preHandler: requireUser }, async (request, reply) => {
    const fileId = uuidParam(request.params, 'fileId');
    const viewer = currentUser(request);
    const file = await app.db
      .selectFrom('stored_files')
      .select(['id', 'owner_id', 'purpose'])
      .where('id', '=', fileId)
      .where('purpose', 'in', ['kyc_passport', 'kyc_document', 'kyc_proof_of_address'])
      .executeTakeFirst();
    if (!file || (file.owner_id !== viewer.id && !viewer.is_admin)) throw notFound();
    // Identity documents are the most sensitive data the bank keeps: every staff read is recorded.
    if (viewer.id !== file.owner_id) {
      await audit(app.db, request, { action: 'kyc.view_document', targetUserId: file.owner_id, targetType: 'stored_file', targetId: file.id });
    }
    return sendStoredFile(app, reply, file.id, file.purpose.replace('kyc_', 'kyc-'));
  });

  // Staff: the review queue, a customer's submissions, and the decision.
  app.get('/admin/kyc', { preHandler: requireAdmin }, async (request) => {
    const query = parseInput(ZKycQueueQuery, request.query);
    let rows = submissionsQuery(app.db)
      .orderBy('kyc_submissions.created_at', query.status === 'pending' ? 'asc' : 'desc')
      .orderBy('kyc_submissions.id');
    let count = app.db.selectFrom('kyc_submissions').select((eb) => eb.fn.countAll<string>().as('total'));
    if (query.status !== 'all') {
      rows = rows.where('kyc_submissions.status', '=', query.status);
      count = count.where('status', '=', query.status);
    }
    const items = await rows
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute();
    const total = Number((await count.executeTakeFirstOrThrow()).total);
    return { data: { items: await toDtos(app.db, items), page: query.page, pageSize: query.pageSize, total } };
  });

  app.get('/admin/kyc/users/:userId', { preHandler: requireAdmin }, async (request) => {
    const userId = uuidParam(request.params, 'userId');
    const user = await app.db.selectFrom('users').select(['id', 'verification_status']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound();
    const rows = await submissionsQuery(app.db).where('kyc_submissions.user_id', '=', userId).orderBy('kyc_submissions.created_at', 'desc').limit(20).execute();
    return { data: { verificationStatus: user.verification_status, submissions: await toDtos(app.db, rows) } };
  });

  const decide = (decision: 'verified' | 'failed') => async (request: import('fastify').FastifyRequest) => {
    const submissionId = uuidParam(request.params, 'submissionId');
    const reason = decision === 'failed' ? parseInput(ZKycRejectRequest, request.body).reason : null;
    const admin = currentUser(request);
    const result = await app.db.transaction().execute(async (trx) => {
      const submission = await trx.selectFrom('kyc_submissions').selectAll().where('id', '=', submissionId).forUpdate().executeTakeFirst();
      if (!submission) throw notFound();
      if (submission.status !== 'pending')
        throw new AppError('conflict', `This submission was already ${submission.status === 'verified' ? 'approved' : 'rejected'}.`);
      const customer = await trx.selectFrom('users').selectAll().where('id', '=', submission.user_id).forUpdate().executeTakeFirstOrThrow();
      await trx
        .updateTable('kyc_submissions')
        .set({ status: decision, reason, reviewed_by: admin.id, reviewed_at: sql`now()` })
        .where('id', '=', submission.id)
        .execute();
      const updated = await trx
        .updateTable('users')
        .set({ verification_status: decision, updated_at: sql`now()` })
        .where('id', '=', customer.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, request, {
        action: decision === 'verified' ? 'kyc.approve' : 'kyc.reject',
        targetUserId: customer.id,
        targetType: 'kyc_submission',
        targetId: submission.id,
        before: { verificationStatus: customer.verification_status, submissionStatus: submission.status },
        after: { verificationStatus: decision, submissionStatus: decision },
        reason,
      });
      return updated;
    });
    const text =
      decision === 'verified'
        ? `Hello ${result.first_name},\n\nYour identity has been verified. Thank you for completing your account setup.`
        : `Hello ${result.first_name},\n\nWe could not verify your identity with the documents you sent.\n\nReason: ${reason}\n\nPlease sign in and submit your documents again at ${app.config.publicUrl}/account/kyc-verification.`;
    await app.mailer
      .send(plainMail(brand(), result.email, decision === 'verified' ? 'your identity is verified' : 'we could not verify your identity', text))
      .catch((error: unknown) => request.log.error({ err: error }, 'KYC decision mail failed'));
    return {
      data: { userId: result.id, verificationStatus: result.verification_status },
      message:
        decision === 'verified' ? 'Verification approved. The customer has been emailed.' : 'Verification rejected. The customer has been emailed the reason.',
    };
  };
  app.post('/admin/kyc/:submissionId/approve', { preHandler: requireAdmin }, decide('verified'));
  app.post('/admin/kyc/:submissionId/reject', { preHandler: requireAdmin }, decide('failed'));
}
