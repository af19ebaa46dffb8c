import { sql } from 'kysely';
import type { DB } from '../db/database';
import type { SecondFactorMethod, SignInAudience, WebauthnChallengePurpose } from '../db/schema';

// Every query of second factors: passkeys, the authenticator app and its recovery codes, sign-in
// tickets and WebAuthn challenges. Functions that lock a row demand a transaction.

// ---------------------------------------------------------------- what a user has

export interface FactorCounts {
  passkeys: number;
  totp: boolean;
  recoveryCodesLeft: number;
}

export async function countFactors(db: DB, userId: string): Promise<FactorCounts> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('passkeys').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).as('passkeys'),
      eb.exists(eb.selectFrom('totp_factors').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null)).as('totp'),
      eb.selectFrom('recovery_codes').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).as('recovery'),
    ])
    .executeTakeFirstOrThrow();
  return { passkeys: Number(row.passkeys ?? 0), totp: Boolean(row.totp), recoveryCodesLeft: Number(row.recovery ?? 0) };
}

// ---------------------------------------------------------------- passkeys

export function listPasskeys(db: DB, userId: string) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'credential_id', 'transports', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findPasskeyByCredentialId(db: DB, credentialId: string) {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** Locks a user's passkeys (counting them before adding one). Use inside a transaction. */
export async function lockUserPasskeys(trx: DB, userId: string): Promise<number> {
  // The user's row is the lock: two registrations at once cannot both pass the count.
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
  const row = await trx
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertPasskey(
  db: DB,
  passkey: { userId: string; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; name: string },
) {
  return db
    .insertInto('passkeys')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: Buffer.from(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports,
      name: passkey.name,
    })
    .onConflict((conflict) => conflict.column('credential_id').doNothing())
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
}

/** Records a use: the authenticator's new counter, and when. */
export async function notePasskeyUsed(db: DB, passkeyId: string, counter: number): Promise<void> {
  await db
    .updateTable('passkeys')
    .set({ counter, last_used_at: sql`now()` })
    .where('id', '=', passkeyId)
    .execute();
}

export function renamePasskey(db: DB, userId: string, passkeyId: string, name: string) {
  return db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', passkeyId)
    .where('user_id', '=', userId)
    .returning(['id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
}

export function deletePasskey(db: DB, userId: string, passkeyId: string) {
  return db.deleteFrom('passkeys').where('id', '=', passkeyId).where('user_id', '=', userId).returning(['id', 'name']).executeTakeFirst();
}

// ---------------------------------------------------------------- the authenticator app (TOTP)

export function findTotp(db: DB, userId: string) {
  return db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Locks the user's authenticator app row. Use inside a transaction. */
export function lockTotp(trx: DB, userId: string) {
  return trx.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

/** A secret waiting for its first code; a pending one is replaced, a confirmed one is left alone (answers false). */
export async function savePendingTotp(db: DB, userId: string, secret: string): Promise<boolean> {
  const saved = await db
    .insertInto('totp_factors')
    .values({ user_id: userId, secret })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ secret, last_used_step: null }).where('totp_factors.confirmed_at', 'is', null))
    .returning('user_id')
    .executeTakeFirst();
  return saved !== undefined;
}

/** A confirmed secret, ready to use; `step` is the step whose code confirmed it (used, so never again). */
export async function confirmTotp(db: DB, userId: string, step: number): Promise<void> {
  await db
    .updateTable('totp_factors')
    .set({ confirmed_at: sql`now()`, last_used_step: step })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Takes a step for a code: succeeds only when it is newer than every step accepted before (a
 * replayed code, or an older one, changes nothing and answers false). One statement, so two
 * requests with the same code cannot both pass.
 */
export async function claimTotpStep(db: DB, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .updateTable('totp_factors')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .returning('user_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function deleteTotp(db: DB, userId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('totp_factors')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .returning('user_id')
    .executeTakeFirst();
  return deleted !== undefined;
}

// ---------------------------------------------------------------- recovery codes (only hashes)

export async function replaceRecoveryCodes(db: DB, userId: string, codeHashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

export async function deleteRecoveryCodes(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

/** Spends an unused recovery code of the user's; answers false when there is none with that hash. */
export async function spendRecoveryCode(db: DB, userId: string, codeHash: string): Promise<boolean> {
  const spent = await db
    .updateTable('recovery_codes')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return spent !== undefined;
}

// ---------------------------------------------------------------- sign-in tickets (only the token's hash)

export function insertTicket(
  db: DB,
  ticket: {
    userId: string;
    tokenHash: string;
    audience: SignInAudience;
    methods: SecondFactorMethod[];
    expiresAt: Date;
    createdAt: Date;
    ownersDevice?: boolean;
  },
) {
  return db
    .insertInto('sign_in_tickets')
    .values({
      user_id: ticket.userId,
      token_hash: ticket.tokenHash,
      audience: ticket.audience,
      methods: ticket.methods,
      expires_at: ticket.expiresAt,
      created_at: ticket.createdAt,
      owners_device: ticket.ownersDevice ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function findTicket(db: DB, tokenHash: string) {
  return db.selectFrom('sign_in_tickets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Serialises the user's emailed sign-in codes (an advisory lock for the transaction) and counts
 * those of this audience mailed since `since`, first codes and resends alike, with the oldest
 * one's time (ADR 016's hourly cap).
 */
export async function lockAndCountEmailCodes(trx: DB, userId: string, audience: SignInAudience, since: Date): Promise<{ count: number; oldest: Date | null }> {
  await sql`select pg_advisory_xact_lock(hashtext(${`sign-in-email-tickets:${userId}`}))`.execute(trx);
  const row = await trx
    .selectFrom('sign_in_email_codes')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('sent_at').as('oldest')])
    .where('user_id', '=', userId)
    .where('audience', '=', audience)
    .where('sent_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
}

/** Counts one emailed sign-in code towards the hourly cap. */
export async function recordEmailCodeSent(trx: DB, userId: string, audience: SignInAudience, sentAt: Date): Promise<void> {
  await trx.insertInto('sign_in_email_codes').values({ user_id: userId, audience, sent_at: sentAt }).execute();
}

/** Locks the ticket of a token's hash. Use inside a transaction. */
export function lockTicket(trx: DB, tokenHash: string) {
  return trx.selectFrom('sign_in_tickets').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

/** Counts a failed try at the second step. */
export async function countTicketAttempt(trx: DB, ticketId: string, attempts: number): Promise<void> {
  await trx.updateTable('sign_in_tickets').set({ attempts }).where('id', '=', ticketId).execute();
}

export async function markTicketUsed(trx: DB, ticketId: string): Promise<void> {
  await trx
    .updateTable('sign_in_tickets')
    .set({ used_at: sql`now()` })
    .where('id', '=', ticketId)
    .execute();
}

/** The ticket's emailed code (an earlier one stops working); `sentAt` by the service's clock spaces out resends. */
export async function setTicketEmailCode(trx: DB, ticketId: string, codeHash: string, sentAt: Date): Promise<void> {
  await trx.updateTable('sign_in_tickets').set({ email_code_hash: codeHash, email_code_sent_at: sentAt }).where('id', '=', ticketId).execute();
}

// ---------------------------------------------------------------- WebAuthn challenges (each works once)

export async function insertChallenge(
  db: DB,
  challenge: {
    challenge: string;
    purpose: WebauthnChallengePurpose;
    userId: string | null;
    ticketId: string | null;
    audience: SignInAudience | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge: challenge.challenge,
      purpose: challenge.purpose,
      user_id: challenge.userId,
      ticket_id: challenge.ticketId,
      audience: challenge.audience,
      expires_at: challenge.expiresAt,
    })
    .execute();
}

/** Spends a challenge of a purpose that is still open; answers what it was for, or undefined. */
export function spendChallenge(db: DB, challenge: string, purpose: WebauthnChallengePurpose, now: Date) {
  return db
    .updateTable('webauthn_challenges')
    .set({ used_at: sql`now()` })
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'user_id', 'ticket_id', 'audience'])
    .executeTakeFirst();
}

// ---------------------------------------------------------------- closing a customer, purges

/** Closing a customer: their factors and pending sign-ins go with them. */
export async function eraseFactors(trx: DB, userId: string): Promise<void> {
  await trx.deleteFrom('webauthn_challenges').where('user_id', '=', userId).execute();
  await trx.deleteFrom('sign_in_tickets').where('user_id', '=', userId).execute();
  await trx.deleteFrom('sign_in_email_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
  await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
}

/** Sign-in tickets and WebAuthn challenges that expired before `before` (used or not). */
export async function deleteSignInStateExpiredBefore(db: DB, before: Date): Promise<number> {
  const challenges = await db.deleteFrom('webauthn_challenges').where('expires_at', '<', before).executeTakeFirst();
  const tickets = await db.deleteFrom('sign_in_tickets').where('expires_at', '<', before).executeTakeFirst();
  // The hourly cap looks back one hour: older sends count for nothing.
  const codes = await db.deleteFrom('sign_in_email_codes').where('sent_at', '<', before).executeTakeFirst();
  return Number(challenges.numDeletedRows) + Number(tickets.numDeletedRows) + Number(codes.numDeletedRows);
}
