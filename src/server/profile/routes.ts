import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  NAME_READ_ONLY_MESSAGE,
  normalizePhone,
  PHONE_MESSAGE,
  PROFILE_PICTURE_FIELD,
  PROFILE_UPDATED_MESSAGE,
  ZProfileUpdateRequest,
} from '../../shared/contracts/profile';
import { EMAIL_CODE_TTL_MS } from '../../shared/limits';
import { consumeCode, issueCode } from '../auth/codes';
import { verifyPassword } from '../auth/crypto';
import { currentUser, requireUser } from '../auth/sessions';
import type { UserUpdate } from '../db/schema';
import { discardFiles, IMAGE_EDGE_MAX, prepareUpload, readMultipart, recordFile, sendStoredFile, writeFiles } from '../files/storage';
import { AppError, badRequest, parseInput } from '../lib/errors';
import { perMinute } from '../plugins/rate-limit';
import { plainMail } from '../mail/templates';
import { toUserDto } from '../users/service';

const EMAIL_TAKEN = 'An account with this email already exists.';

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const brand = () => ({ bankName: app.config.bankName, publicUrl: app.config.publicUrl });

  app.patch('/user/profile', { preHandler: requireUser, config: perMinute(20) }, async (request) => {
    const input = parseInput(ZProfileUpdateRequest, request.body);
    const user = currentUser(request);
    // The names are shown read-only; sending them back unchanged is fine, changing them is not.
    if ((input.firstName !== undefined && input.firstName !== user.first_name) || (input.lastName !== undefined && input.lastName !== user.last_name)) {
      throw new AppError('forbidden', NAME_READ_ONLY_MESSAGE);
    }
    const changes: UserUpdate = {};
    if (input.phoneNumber !== undefined) {
      const phone = normalizePhone(input.phoneNumber, user.country_code);
      if (!phone) throw badRequest(PHONE_MESSAGE, { phoneNumber: PHONE_MESSAGE });
      changes.phone = phone;
    }
    if (input.address !== undefined) changes.address = input.address;
    if (input.state !== undefined) changes.state = input.state;

    const newEmail = input.email !== undefined && input.email !== user.email ? input.email : null;
    let emailChangePending = false;
    let message = PROFILE_UPDATED_MESSAGE;
    if (newEmail && input.emailCode) {
      // Second call: the code mailed to the new address proves the customer reads it.
      await consumeCode(app.db, {
        userId: user.id,
        purpose: 'email_change',
        binding: newEmail,
        code: input.emailCode,
        messages: { missing: 'No code is waiting for this email address. Please ask for a new one.', wrong: 'The code is not correct.' },
      });
      changes.email = newEmail;
    } else if (newEmail) {
      if (!input.password) throw badRequest('Please enter your current password to change your email address.', { password: 'Current password is required' });
      if (!(await verifyPassword(user.password_hash, input.password)))
        throw badRequest('Your current password is not correct.', { password: 'Incorrect password' });
      const taken = await app.db.selectFrom('users').select('id').where('email', '=', newEmail).executeTakeFirst();
      if (taken) throw new AppError('conflict', EMAIL_TAKEN, { email: EMAIL_TAKEN });
      const code = await issueCode(app.db, { userId: user.id, purpose: 'email_change', binding: newEmail, ttlMs: EMAIL_CODE_TTL_MS });
      await app.mailer.send(
        plainMail(
          brand(),
          newEmail,
          `confirm your new email address: ${code}`,
          `Hello ${user.first_name},\n\nTo make ${newEmail} the email of your account, enter this code: ${code}. It is valid for 10 minutes.\n\nIf you did not ask for this, ignore this email.`,
        ),
      );
      emailChangePending = true;
      message = `We sent a 6-digit code to ${newEmail}. Enter it to confirm your new email address.${Object.keys(changes).length > 0 ? ' Your other changes are saved.' : ''}`;
    }

    let updated = user;
    if (Object.keys(changes).length > 0) {
      updated = await app.db
        .updateTable('users')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((error: { code?: string }) => {
          if (error.code === '23505') throw new AppError('conflict', EMAIL_TAKEN, { email: EMAIL_TAKEN });
          throw error;
        });
    }
    if (changes.email) {
      // The old address hears about it, in case this was not its owner.
      await app.mailer
        .send(
          plainMail(
            brand(),
            user.email,
            'your email address was changed',
            `Hello ${user.first_name},\n\nThe email of your account was changed to ${changes.email}. If this was not you, contact support at once.`,
          ),
        )
        .catch((error: unknown) => request.log.error({ err: error }, 'email change notice failed'));
      message = 'Your email address has been changed. Profile updated successfully';
    }
    return { data: await toUserDto(app.db, updated), message, emailChangePending, pendingEmail: emailChangePending ? newEmail : null };
  });

  app.patch('/user/profile-picture', { preHandler: requireUser, config: perMinute(10) }, async (request) => {
    const user = currentUser(request);
    const form = await readMultipart(request, { files: [PROFILE_PICTURE_FIELD], fields: [] });
    const part = form.files.get(PROFILE_PICTURE_FIELD);
    if (!part) throw badRequest('Please choose a picture to upload.', { [PROFILE_PICTURE_FIELD]: 'No file selected' });
    const prepared = await prepareUpload(part, 'image', 'The profile picture', IMAGE_EDGE_MAX.avatar);
    const [storageName] = await writeFiles(app, [prepared]);
    if (!storageName) throw new Error('Assertion failed: one file written');
    let previous: string | null = null;
    let updated;
    try {
      updated = await app.db.transaction().execute(async (trx) => {
        const locked = await trx.selectFrom('users').select('profile_picture').where('id', '=', user.id).forUpdate().executeTakeFirstOrThrow();
        const fileId = await recordFile(trx, {
          ownerId: user.id,
          purpose: 'profile_picture',
          storageName,
          mediaType: prepared.mediaType,
          sizeBytes: prepared.buffer.length,
        });
        if (locked.profile_picture) {
          const old = await trx
            .deleteFrom('stored_files')
            .where('id', '=', locked.profile_picture)
            .where('owner_id', '=', user.id)
            .returning('storage_name')
            .executeTakeFirst();
          previous = old?.storage_name ?? null;
        }
        return trx
          .updateTable('users')
          .set({ profile_picture: fileId, updated_at: sql`now()` })
          .where('id', '=', user.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    } catch (error) {
      await discardFiles(app, [storageName]);
      throw error;
    }
    if (previous) await discardFiles(app, [previous]);
    return { data: await toUserDto(app.db, updated), message: 'Profile picture updated' };
  });

  // The avatar: its owner and staff may read it; anyone else gets the same 404 as a missing one.
  app.get('/user/profile-picture/:userId', { preHandler: requireUser }, async (request, reply) => {
    const parsed = z.object({ userId: z.uuid() }).safeParse(request.params);
    if (!parsed.success) throw new AppError('not_found', 'Not found');
    const { userId } = parsed.data;
    const viewer = currentUser(request);
    if (viewer.id !== userId && !viewer.is_admin) throw new AppError('not_found', 'Not found');
    const owner = await app.db.selectFrom('users').select('profile_picture').where('id', '=', userId).executeTakeFirst();
    if (!owner?.profile_picture) throw new AppError('not_found', 'Not found');
    return sendStoredFile(app, reply, owner.profile_picture, 'profile-picture');
  });
}
