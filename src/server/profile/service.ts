import type { z } from 'zod';
import {
  NAME_READ_ONLY_MESSAGE,
  normalizePhone,
  PHONE_MESSAGE,
  PROFILE_PICTURE_FIELD,
  PROFILE_PICTURE_UPDATED_MESSAGE,
  PROFILE_UPDATED_MESSAGE,
  type ZProfileUpdateAnswer,
  type ZProfileUpdateRequest,
} from '../../shared/contracts/profile';
import type { UserDto } from '../../shared/contracts/user';
import { EMAIL_CODE_TTL_MS } from '../../shared/limits';
import { consumeCode, issueCode } from '../auth/codes';
import { endUserSessions } from '../auth/repository';
import { isCurrentPassword } from '../auth/service';
import { assertFreshFactor, type FreshFactorInput } from '../factors/proofs';
import { countFactors } from '../factors/repository';
import { type ActorContext, withDb } from '../context';
import type { User } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { inTransaction } from '../db/transaction';
import { deleteOwnedFile, findStoredFile, recordFile } from '../files/repository';
import { discardFiles, IMAGE_EDGE_MAX, prepareUpload, readStoredFile, type StoredFileContent, storeFiles, type UploadedFile } from '../files/service';
import { assert, badRequest, conflict, forbidden, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, emailChangedMail, plainMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import * as repository from './repository';

const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists.';
const emailTaken = () => conflict(EMAIL_TAKEN_MESSAGE, { email: EMAIL_TAKEN_MESSAGE });

export type ProfileUpdate = z.output<typeof ZProfileUpdateRequest>;
export type ProfileUpdateAnswer = z.infer<typeof ZProfileUpdateAnswer>;

/**
 * A user changes their own profile. Names are read-only (sent back unchanged is fine). A new
 * email takes two calls: the first, with the current password and (for an account with a second
 * factor) a fresh factor, mails a code to the new address; the second, with that code, proves the
 * user reads it and makes the change: both addresses are emailed and every other session ends
 * (ADR 025).
 */
export async function updateProfile(ctx: ActorContext, input: ProfileUpdate): Promise<ProfileUpdateAnswer> {
  const user = ctx.actor.user;
  if ((input.firstName !== undefined && input.firstName !== user.first_name) || (input.lastName !== undefined && input.lastName !== user.last_name)) {
    throw forbidden(NAME_READ_ONLY_MESSAGE);
  }
  const changes: repository.ProfileChanges = {};
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
    await consumeCode(ctx.db, {
      userId: user.id,
      purpose: 'email_change',
      binding: newEmail,
      code: input.emailCode,
      messages: { missing: 'No code is waiting for this email address. Please ask for a new one.', wrong: 'The code is not correct.' },
    });
    changes.email = newEmail;
  } else if (newEmail) {
    await sendEmailChangeCode(ctx, newEmail, input.password, input);
    emailChangePending = true;
    message = `We sent a 6-digit code to ${newEmail}. Enter it to confirm your new email address.${Object.keys(changes).length > 0 ? ' Your other changes are saved.' : ''}`;
  }

  // The change and the notice to the old address commit together.
  const updated = await inTransaction(ctx.db, async (trx) => {
    if (Object.keys(changes).length === 0) return user;
    let saved: User;
    try {
      saved = await repository.updateProfile(trx, user.id, changes);
    } catch (error) {
      if (isUniqueViolation(error, repository.USERS_EMAIL_CONSTRAINT)) throw emailTaken();
      throw error;
    }
    if (changes.email) {
      // The old address hears about it, in case this was not its owner; the new one is told it now
      // signs in; whoever else was signed in (on a device the owner may have lost) is signed out.
      await queueMail(withDb(ctx, trx), emailChangedMail(brandOf(ctx.config), user.email, user.first_name, user.email, changes.email));
      await queueMail(withDb(ctx, trx), emailChangedMail(brandOf(ctx.config), changes.email, user.first_name, user.email, changes.email));
      await endUserSessions(trx, user.id, ctx.actor.sessionId);
    }
    return saved;
  });
  if (changes.email) message = 'Your email address has been changed. Profile updated successfully';
  return { data: await toUserDto(ctx.db, updated), message, emailChangePending, pendingEmail: emailChangePending ? newEmail : null };
}

/**
 * The first step of an email change: the current password, a fresh second factor when the account
 * has one (spent in the transaction that issues the code, ADR 025), then a code mailed to the new
 * address (the user must get it: no quiet failure).
 */
async function sendEmailChangeCode(ctx: ActorContext, newEmail: string, password: string | undefined, proof: FreshFactorInput): Promise<void> {
  const user = ctx.actor.user;
  if (!password) throw badRequest('Please enter your current password to change your email address.', { password: 'Current password is required' });
  if (!(await isCurrentPassword(ctx.db, user.id, password))) throw badRequest('Your current password is not correct.', { password: 'Incorrect password' });
  if (await repository.emailInUse(ctx.db, newEmail)) throw emailTaken();
  const factors = await countFactors(ctx.db, user.id);
  await inTransaction(ctx.db, async (trx) => {
    if (factors.passkeys > 0 || factors.totp) await assertFreshFactor(withDb(ctx, trx), user.id, proof);
    const { code, expiresAt } = await issueCode(trx, { userId: user.id, purpose: 'email_change', binding: newEmail, ttlMs: EMAIL_CODE_TTL_MS });
    await queueMail(
      withDb(ctx, trx),
      plainMail(
        brandOf(ctx.config),
        newEmail,
        `confirm your new email address: ${code}`,
        `Hello ${user.first_name},\n\nTo make ${newEmail} the email of your account, enter this code: ${code}. It is valid for 10 minutes.\n\nIf you did not ask for this, ignore this email.`,
      ),
      { expiresAt },
    );
  });
}

/** A new profile picture (re-encoded, at most 512 px); the previous one is deleted. */
export async function changeProfilePicture(ctx: ActorContext, form: { files: Record<typeof PROFILE_PICTURE_FIELD, UploadedFile> }): Promise<Outcome<UserDto>> {
  const userId = ctx.actor.user.id;
  const prepared = await prepareUpload(form.files[PROFILE_PICTURE_FIELD], 'image', 'The profile picture', IMAGE_EDGE_MAX.avatar);
  const { updated, previous } = await storeFiles(ctx, [prepared], ([storageName]) => {
    assert(storageName, 'one file written');
    return inTransaction(ctx.db, async (trx) => {
      const current = await repository.lockProfilePicture(trx, userId);
      const fileId = await recordFile(trx, {
        ownerId: userId,
        purpose: 'profile_picture',
        storageName,
        mediaType: prepared.mediaType,
        sizeBytes: prepared.bytes.length,
      });
      const previous = current ? await deleteOwnedFile(trx, current, userId) : null;
      return { updated: await repository.setProfilePicture(trx, userId, fileId), previous };
    });
  });
  if (previous) await discardFiles(ctx, [previous]);
  return { data: await toUserDto(ctx.db, updated), message: PROFILE_PICTURE_UPDATED_MESSAGE };
}

/** A profile picture: its owner and staff may read it; anyone else gets the same 404 as a missing one. */
export async function readProfilePicture(ctx: ActorContext, userId: string): Promise<StoredFileContent> {
  const viewer = ctx.actor.user;
  if (viewer.id !== userId && !viewer.is_admin) throw notFound();
  const pictureId = await repository.profilePictureOf(ctx.db, userId);
  if (!pictureId) throw notFound();
  const file = await findStoredFile(ctx.db, pictureId);
  if (!file) throw notFound('File not found');
  return readStoredFile(ctx, file, 'profile-picture');
}
