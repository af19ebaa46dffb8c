import { sql } from 'kysely';
import type { StaffRole, StaffStatus } from '../../shared/staff-roles';
import type { DB } from '../db/database';
import type { User } from '../db/schema';

// Staff members and their invitations (ADR 022). Staff are users with is_admin, a role and a status.

export interface StaffRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  staff_role: StaffRole;
  staff_status: StaffStatus;
  has_second_factor: boolean;
  last_sign_in_at: Date | null;
  created_at: Date;
  invitation_expires_at: Date | null;
}

/** Every staff member with whether they hold a second factor and when they last signed in, by name. */
export async function listStaff(db: DB, limit: number): Promise<StaffRow[]> {
  const result = await sql<StaffRow>`
    select u.id, u.first_name, u.last_name, u.email, u.staff_role, u.staff_status, u.created_at,
      (exists (select 1 from passkeys p where p.user_id = u.id)
        or exists (select 1 from totp_factors t where t.user_id = u.id and t.confirmed_at is not null)) as has_second_factor,
      (select max(s.created_at) from sessions s where s.user_id = u.id) as last_sign_in_at,
      case when u.staff_status = 'invited' then
        (select max(i.expires_at) from staff_invitations i where i.user_id = u.id and i.used_at is null) end as invitation_expires_at
    from users u
    where u.is_admin
    order by lower(u.first_name), lower(u.last_name), u.id
    limit ${limit}`.execute(db);
  return result.rows;
}

export function findStaff(db: DB, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('is_admin', '=', true).executeTakeFirst();
}

/**
 * Locks every active admin, then the staff member to change, each in id order: two changes that
 * could each take away the last admin wait for one another instead of both passing the count.
 */
export async function lockForStaffChange(trx: DB, id: string): Promise<{ staff: User | undefined; activeAdminIds: string[] }> {
  const admins = await activeAdminIds(trx, { lock: true });
  const staff = await trx.selectFrom('users').selectAll().where('id', '=', id).where('is_admin', '=', true).forUpdate().executeTakeFirst();
  return { staff, activeAdminIds: admins };
}

/** The active admins' ids, in id order; `lock` locks them (lockForStaffChange). */
export async function activeAdminIds(db: DB, options: { lock: boolean } = { lock: false }): Promise<string[]> {
  const query = db.selectFrom('users').select('id').where('staff_role', '=', 'admin').where('staff_status', '=', 'active').orderBy('id');
  return (await (options.lock ? query.forUpdate() : query).execute()).map((admin) => admin.id);
}

export function setStaffRole(trx: DB, id: string, role: StaffRole): Promise<User> {
  return trx
    .updateTable('users')
    .set({ staff_role: role, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setStaffStatus(trx: DB, id: string, status: StaffStatus): Promise<User> {
  return trx
    .updateTable('users')
    .set({ staff_status: status, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function emailTaken(db: DB, email: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

export function insertInvitedStaff(
  trx: DB,
  values: { email: string; firstName: string; lastName: string; role: StaffRole; passwordHash: string },
): Promise<User> {
  return trx
    .insertInto('users')
    .values({
      email: values.email,
      password_hash: values.passwordHash,
      first_name: values.firstName,
      last_name: values.lastName,
      is_admin: true,
      staff_role: values.role,
      staff_status: 'invited',
      // The invitation link proves the address; until it is used the password is unknown to anyone.
      is_email_confirmed: true,
      verification_status: 'verified',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertInvitation(trx: DB, values: { userId: string; tokenHash: string; invitedBy: string; expiresAt: Date }): Promise<void> {
  await trx
    .insertInto('staff_invitations')
    .values({ user_id: values.userId, token_hash: values.tokenHash, invited_by: values.invitedBy, expires_at: values.expiresAt })
    .execute();
}

/** A new link makes every earlier unused one stop working (its expiry becomes now: the row is kept). */
export async function expireInvitations(trx: DB, userId: string, now: Date): Promise<number> {
  const result = await trx
    .updateTable('staff_invitations')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function lockInvitation(trx: DB, tokenHash: string) {
  return trx.selectFrom('staff_invitations').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

export async function acceptInvitation(trx: DB, invitationId: string, userId: string, passwordHash: string): Promise<User> {
  await trx
    .updateTable('staff_invitations')
    .set({ used_at: sql`now()` })
    .where('id', '=', invitationId)
    .execute();
  return trx
    .updateTable('users')
    .set({ password_hash: passwordHash, staff_status: 'active', updated_at: sql`now()` })
    .where('id', '=', userId)
    .where('staff_status', '=', 'invited')
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const EMAIL_UNIQUE_CONSTRAINT = 'users_email_key';

/** Whether a staff member ever had a password of their own: an accepted invitation, or staff from before invitations. */
export async function hasAcceptedInvitationOrPassword(db: DB, userId: string): Promise<boolean> {
  const invitations = await db
    .selectFrom('staff_invitations')
    .select([sql<number>`count(*)::int`.as('total'), sql<number>`count(used_at)::int`.as('used')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return invitations.total === 0 || invitations.used > 0;
}
