import { sql, type Selectable } from 'kysely';
import { type DB, prepared } from '../db/database';
import type { NotificationPreferencesTable, NotificationsTable, UsersTable } from '../db/schema';

// Every query of the notifications domain. Each one about a customer's items filters by their id:
// another customer's notification id is simply not found.

export type NotificationRow = Selectable<NotificationsTable>;
export type PreferenceRow = Selectable<NotificationPreferencesTable>;

const RECIPIENT_COLUMNS = ['id', 'email', 'first_name', 'is_admin', 'closed_at'] as const;
export type Recipient = Pick<Selectable<UsersTable>, (typeof RECIPIENT_COLUMNS)[number]>;

/** Who a notification goes to: enough to address the mail and to skip closed accounts and staff. */
export function findRecipient(db: DB, userId: string): Promise<Recipient | undefined> {
  return db.selectFrom('users').select(RECIPIENT_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

export function findRecipients(db: DB, userIds: string[]): Promise<Recipient[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(RECIPIENT_COLUMNS).where('id', 'in', userIds).execute();
}

/** Every choice of these customers. */
export function preferencesOf(db: DB, userIds: string[]): Promise<PreferenceRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('notification_preferences').selectAll().where('user_id', 'in', userIds).execute();
}

export function findPreference(db: DB, userId: string, kind: string): Promise<PreferenceRow | undefined> {
  return db.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst();
}

export function listPreferences(db: DB, userId: string): Promise<PreferenceRow[]> {
  return db.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).execute();
}

export async function upsertPreference(
  db: DB,
  row: { userId: string; kind: string; inApp: boolean; email: boolean; thresholdCents: number | null; now: Date },
): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({ user_id: row.userId, kind: row.kind, in_app: row.inApp, email: row.email, threshold_cents: row.thresholdCents, updated_at: row.now })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'kind']).doUpdateSet({ in_app: row.inApp, email: row.email, threshold_cents: row.thresholdCents, updated_at: row.now }),
    )
    .execute();
}

export interface NewNotification {
  id: string;
  userId: string;
  kind: string;
  dedupeKey: string;
  title: string;
  body: string;
  link: string | null;
  inApp: boolean;
  emailed: boolean;
  createdAt: Date;
}

/** Inserts a notification unless this customer already has one of this kind and key: answers whether it was new. */
export async function insertNotification(db: DB, row: NewNotification): Promise<boolean> {
  return (await insertNotifications(db, [row])).size > 0;
}

/**
 * Inserts many notifications in one statement, each unless its customer already has one of its
 * kind and key (or an earlier row of the same call has): answers the ids that were new.
 */
export async function insertNotifications(db: DB, rows: NewNotification[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  // The rows travel as one array per column (a bulk payment's 1,000 money-received notifications
  // were a VALUES list of 10,000 parameters, parsed and planned anew for each count): the text is
  // the same for any count, so it is prepared once per connection.
  const query = sql<{ id: string }>`
    insert into notifications (id, user_id, kind, dedupe_key, title, body, link, in_app, emailed, created_at)
    select * from unnest(${rows.map((row) => row.id)}::uuid[], ${rows.map((row) => row.userId)}::uuid[], ${rows.map((row) => row.kind)}::text[],
      ${rows.map((row) => row.dedupeKey)}::text[], ${rows.map((row) => row.title)}::text[], ${rows.map((row) => row.body)}::text[],
      ${rows.map((row) => row.link)}::text[], ${rows.map((row) => row.inApp)}::boolean[], ${rows.map((row) => row.emailed)}::boolean[],
      ${rows.map((row) => row.createdAt.toISOString())}::timestamptz[])
    on conflict (user_id, kind, dedupe_key) do nothing
    returning id`;
  const inserted = await db.executeQuery(prepared(query.compile(db)));
  return new Set(inserted.rows.map((row) => row.id));
}

/** One page of a customer's in-app notifications, newest first, with the filter's total and the unread count. */
export async function pageOf(db: DB, userId: string, filter: { unreadOnly: boolean; page: number; pageSize: number }) {
  let query = db.selectFrom('notifications').where('user_id', '=', userId).where('in_app', '=', true);
  if (filter.unreadOnly) query = query.where('read_at', 'is', null);
  const [items, total, unread] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
    unreadCount(db, userId),
  ]);
  return { items, total: Number(total.count), unread };
}

export async function unreadCount(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('in_app', '=', true)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks one of the customer's notifications read (a read one keeps its first read time); undefined: they have none with this id. */
export function markRead(db: DB, userId: string, id: string, now: Date): Promise<NotificationRow | undefined> {
  return db
    .updateTable('notifications')
    .set({ read_at: sql<Date>`coalesce(read_at, ${now})` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('in_app', '=', true)
    .returningAll()
    .executeTakeFirst();
}

export async function markAllRead(db: DB, userId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('in_app', '=', true)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---------------------------------------------------------------- the ledger notifier

/** Locks a notifier's cursor for the transaction (one reader at a time) and answers its position. */
export async function lockCursor(trx: DB, name: string): Promise<number> {
  await trx
    .insertInto('notification_cursors')
    .values({ name, position: 0 })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await trx.selectFrom('notification_cursors').select('position').where('name', '=', name).forUpdate().executeTakeFirstOrThrow();
  return Number(row.position);
}

export async function moveCursor(trx: DB, name: string, position: number, now: Date): Promise<void> {
  await trx.updateTable('notification_cursors').set({ position, updated_at: now }).where('name', '=', name).execute();
}

export interface ChainedPosting {
  position: number;
  entry_id: string;
  entry_kind: string;
  entry_description: string;
  account_id: string;
  account_kind: string;
  owner_id: string | null;
  amount: number;
  balance_after: number;
  memo: string | null;
  counterparty: string | null;
}

/**
 * The entries chained at positions (after, after + count], in chain order: the positions alone. The
 * chain is gapless and committed in order (one sealer at a time, ADR 008), so a position range is
 * exactly the entries committed in it: none is skipped, whatever order their writers committed in.
 */
export async function chainLinks(db: DB, after: number, count: number): Promise<Array<{ position: number; entry_id: string }>> {
  const query = sql<{ position: string; entry_id: string }>`
    select position, entry_id from ledger_chain where position > ${after} and position <= ${after + count} order by position`;
  const result = await db.executeQuery(prepared(query.compile(db)));
  return result.rows.map((row) => ({ position: Number(row.position), entry_id: row.entry_id }));
}

/** Each account's kind and owner (neither ever changes), by id. */
export async function accountKinds(db: DB, accountIds: string[]): Promise<Map<string, { kind: string; owner_id: string | null }>> {
  const query = sql<{ id: string; kind: string; owner_id: string | null }>`
    select id, kind, owner_id from ledger_accounts where id = any(${accountIds}::uuid[])`;
  const result = await db.executeQuery(prepared(query.compile(db)));
  return new Map(result.rows.map((row) => [row.id, { kind: row.kind, owner_id: row.owner_id }]));
}

/** The newest chain position (0 for an empty chain). */
export async function chainHeadPosition(db: DB): Promise<number> {
  const row = await db
    .selectFrom('ledger_chain')
    .select((eb) => eb.fn.max('position').as('position'))
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}
