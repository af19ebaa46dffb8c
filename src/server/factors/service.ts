import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  type FactorSummary,
  NO_PASSKEY_MESSAGE,
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_NOT_FOUND_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  PASSKEY_REMOVED_MESSAGE,
  PASSKEY_RENAMED_MESSAGE,
  type PasskeyDto,
  PASSKEYS_FULL_MESSAGE,
  PASSKEYS_PER_USER_MAX,
  STAFF_LAST_FACTOR_MESSAGE,
  TOTP_ALREADY_MESSAGE,
  TOTP_CONFIRMED_MESSAGE,
  TOTP_ENROL_STARTED_MESSAGE,
  TOTP_NOT_FOUND_MESSAGE,
  TOTP_NOT_PENDING_MESSAGE,
  TOTP_REMOVED_MESSAGE,
  WRONG_CODE_MESSAGE,
} from '../../shared/contracts/factors';
import { audit } from '../audit/audit';
import { type ActorContext, withDb } from '../context';
import type { SessionUser } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { badRequest, conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { describeUserAgent } from '../lib/user-agent';
import { queueMail } from '../mail/outbox';
import { brandOf, secondFactorChangedMail } from '../mail/templates';
import { endUserSessions } from '../auth/repository';
import { assertFreshFactor, type FreshFactorInput, newRecoveryCodes, recoveryCodeHash, stepUpPasskeyOptions } from './proofs';
import * as repository from './repository';
import { matchTotpStep, newTotpSecret, totpUri } from './totp';
import { registrationOptions, verifyRegistration } from './webauthn';

// The signed-in user's own factors: passkeys (register, list, rename, remove) and the
// authenticator app (enrol, confirm with a first code, remove). Staff must keep one: a staff
// member without any reaches nothing but these calls (plugins/auth.ts), and cannot remove their
// last. Every change is emailed to the owner, and a staff member's is audited.

const hasFactor = (counts: repository.FactorCounts) => counts.passkeys > 0 || counts.totp;

export async function factorSummary(ctx: ActorContext): Promise<FactorSummary> {
  const counts = await repository.countFactors(ctx.db, ctx.actor.user.id);
  return { ...counts, enrolmentRequired: ctx.actor.user.is_admin && !hasFactor(counts) };
}

type PasskeyRow = { id: string; name: string; created_at: Date; last_used_at: Date | null };

const toPasskeyDto = (row: PasskeyRow): PasskeyDto => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/** Tells the owner (and, for staff, the audit log) that a factor was added or removed, in the change's transaction. */
async function recordChange(ctx: ActorContext, change: string, action: 'second_factor.add' | 'second_factor.remove', detail: Record<string, unknown>) {
  const user = ctx.actor.user;
  await queueMail(ctx, secondFactorChangedMail(brandOf(ctx.config), user.email, user.first_name, change));
  if (user.is_admin) {
    await audit(
      ctx.db,
      { user: { id: user.id, email: user.email }, ip: ctx.actor.ip },
      { action, targetUserId: user.id, targetType: 'second_factor', after: detail },
    );
  }
}

/** Staff keep at least one factor: refuses a removal that would leave none. Use inside the removal's transaction. */
async function assertStaffKeepsAFactor(trx: ActorContext, user: SessionUser, removing: { passkey?: boolean; totp?: boolean }) {
  if (!user.is_admin) return;
  await repository.lockUserPasskeys(trx.db, user.id);
  const counts = await repository.countFactors(trx.db, user.id);
  const left = { passkeys: counts.passkeys - (removing.passkey ? 1 : 0), totp: counts.totp && !removing.totp, recoveryCodesLeft: 0 };
  if (!hasFactor(left)) throw conflict(STAFF_LAST_FACTOR_MESSAGE);
}

// ---------------------------------------------------------------- passkeys

export async function listPasskeys(ctx: ActorContext): Promise<PasskeyDto[]> {
  return (await repository.listPasskeys(ctx.db, ctx.actor.user.id)).map(toPasskeyDto);
}

export async function passkeyRegistrationOptions(ctx: ActorContext) {
  const user = ctx.actor.user;
  const existing = await repository.listPasskeys(ctx.db, user.id);
  if (existing.length >= PASSKEYS_PER_USER_MAX) throw conflict(PASSKEYS_FULL_MESSAGE);
  const displayName = `${user.first_name} ${user.last_name}`.trim() || user.email;
  return registrationOptions(ctx.db, ctx.config, { id: user.id, email: user.email, displayName }, existing, ctx.clock.now());
}

/**
 * A challenge for one of the user's passkeys, to prove a fresh factor before a sensitive change
 * (ADR 011: the password for now); the change's call carries the passkey's answer.
 */
export async function stepUpOptions(ctx: ActorContext) {
  if ((await repository.listPasskeys(ctx.db, ctx.actor.user.id)).length === 0) throw badRequest(NO_PASSKEY_MESSAGE);
  return stepUpPasskeyOptions(ctx, ctx.actor.user.id);
}

/** Stores a new passkey whose registration answers a challenge issued to this user; named as given, or after the browser. */
export async function registerPasskey(
  ctx: ActorContext,
  input: { name?: string | undefined; response: RegistrationResponseJSON },
): Promise<Outcome<PasskeyDto>> {
  const user = ctx.actor.user;
  return inTransaction(ctx.db, async (trx) => {
    const tx = withDb(ctx, trx);
    const credential = await verifyRegistration(trx, ctx.config, user.id, input.response, ctx.clock.now());
    if (!credential) throw badRequest(PASSKEY_REFUSED_MESSAGE);
    if ((await repository.lockUserPasskeys(trx, user.id)) >= PASSKEYS_PER_USER_MAX) throw conflict(PASSKEYS_FULL_MESSAGE);
    const name = input.name ?? `Passkey on ${describeUserAgent(ctx.actor.userAgent)}`.slice(0, 60);
    const added = await repository.insertPasskey(trx, {
      userId: user.id,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? input.response.response.transports ?? [],
      name,
    });
    if (!added) throw conflict('This passkey is already registered.');
    await recordChange(tx, 'A passkey was added', 'second_factor.add', { kind: 'passkey', id: added.id, name: added.name });
    return { data: toPasskeyDto(added), message: PASSKEY_ADDED_MESSAGE, created: true };
  });
}

export async function renamePasskey(ctx: ActorContext, passkeyId: string, name: string): Promise<Outcome<PasskeyDto>> {
  const renamed = await repository.renamePasskey(ctx.db, ctx.actor.user.id, passkeyId, name);
  if (!renamed) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
  return { data: toPasskeyDto(renamed), message: PASSKEY_RENAMED_MESSAGE };
}

/**
 * Removes one of the user's passkeys (another user's is not found), with a fresh factor (ADR 025):
 * whoever holds only a session cannot weaken the account. Every other session ends.
 */
export async function removePasskey(ctx: ActorContext, passkeyId: string, proof: FreshFactorInput): Promise<Outcome<null>> {
  const user = ctx.actor.user;
  await inTransaction(ctx.db, async (trx) => {
    const tx = withDb(ctx, trx);
    await assertStaffKeepsAFactor(tx, user, { passkey: true });
    if (!(await repository.listPasskeys(trx, user.id)).some((passkey) => passkey.id === passkeyId)) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
    await assertFreshFactor(tx, user.id, proof);
    const removed = await repository.deletePasskey(trx, user.id, passkeyId);
    if (!removed) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
    await endUserSessions(trx, user.id, ctx.actor.sessionId);
    await recordChange(tx, `The passkey "${removed.name}" was removed`, 'second_factor.remove', { kind: 'passkey', id: removed.id, name: removed.name });
  });
  return { data: null, message: PASSKEY_REMOVED_MESSAGE };
}

// ---------------------------------------------------------------- the authenticator app

/**
 * Starts enrolling an authenticator app: a new secret, answered this once (as an otpauth:// URI
 * for the QR code, and as text to type). It works only after a first code confirms it. A pending
 * one is replaced; a confirmed one must be removed first.
 */
export async function enrolTotp(ctx: ActorContext): Promise<Outcome<{ secret: string; uri: string }>> {
  const user = ctx.actor.user;
  const secret = newTotpSecret();
  if (!(await repository.savePendingTotp(ctx.db, user.id, secret))) throw conflict(TOTP_ALREADY_MESSAGE);
  return { data: { secret, uri: totpUri(secret, ctx.config.bankName, user.email) }, message: TOTP_ENROL_STARTED_MESSAGE };
}

/** A first code from the app confirms it; the answer carries the 10 recovery codes, shown only this once (stored hashed). */
export async function confirmTotp(ctx: ActorContext, code: string): Promise<Outcome<{ recoveryCodes: string[] }>> {
  const user = ctx.actor.user;
  return inTransaction(ctx.db, async (trx) => {
    const totp = await repository.lockTotp(trx, user.id);
    if (totp?.confirmed_at) throw conflict(TOTP_ALREADY_MESSAGE);
    if (!totp) throw conflict(TOTP_NOT_PENDING_MESSAGE);
    const step = matchTotpStep(totp.secret, code, ctx.clock.now());
    if (step === null) throw badRequest(WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
    await repository.confirmTotp(trx, user.id, step);
    const recoveryCodes = newRecoveryCodes();
    await repository.replaceRecoveryCodes(
      trx,
      user.id,
      recoveryCodes.map((recoveryCode) => recoveryCodeHash(user.id, recoveryCode)),
    );
    await recordChange(withDb(ctx, trx), 'An authenticator app was set up', 'second_factor.add', { kind: 'totp' });
    return { data: { recoveryCodes }, message: TOTP_CONFIRMED_MESSAGE, created: true };
  });
}

/**
 * Removes the authenticator app and its recovery codes, with a fresh factor (ADR 025: a code from
 * the app itself, a recovery code or a passkey). Every other session ends.
 */
export async function removeTotp(ctx: ActorContext, proof: FreshFactorInput): Promise<Outcome<null>> {
  const user = ctx.actor.user;
  await inTransaction(ctx.db, async (trx) => {
    const tx = withDb(ctx, trx);
    await assertStaffKeepsAFactor(tx, user, { totp: true });
    if (!(await repository.lockTotp(trx, user.id))?.confirmed_at) throw notFound(TOTP_NOT_FOUND_MESSAGE);
    await assertFreshFactor(tx, user.id, proof);
    if (!(await repository.deleteTotp(trx, user.id))) throw notFound(TOTP_NOT_FOUND_MESSAGE);
    await repository.deleteRecoveryCodes(trx, user.id);
    await endUserSessions(trx, user.id, ctx.actor.sessionId);
    await recordChange(tx, 'The authenticator app was removed', 'second_factor.remove', { kind: 'totp' });
  });
  return { data: null, message: TOTP_REMOVED_MESSAGE };
}
