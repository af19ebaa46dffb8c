import { sql } from 'kysely';
import type { DB } from '../db/database';
import type { User, UserUpdate } from '../db/schema';

/** Two accounts never share an email (the unique index behind the "already exists" answer). */
export const USERS_EMAIL_CONSTRAINT = 'users_email_key';

export type ProfileChanges = Pick<UserUpdate, 'phone' | 'address' | 'state' | 'email'>;

export async function emailInUse(db: DB, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

export function updateProfile(db: DB, userId: string, changes: ProfileChanges): Promise<User> {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks the user's row and answers their current picture's file id (use inside a transaction). */
export async function lockProfilePicture(trx: DB, userId: string): Promise<string | null> {
  const row = await trx.selectFrom('users').select('profile_picture').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  return row.profile_picture;
}

export function setProfilePicture(trx: DB, userId: string, fileId: string): Promise<User> {
  return trx
    .updateTable('users')
    .set({ profile_picture: fileId, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function profilePictureOf(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('profile_picture').where('id', '=', userId).executeTakeFirst();
  return row?.profile_picture ?? null;
}
