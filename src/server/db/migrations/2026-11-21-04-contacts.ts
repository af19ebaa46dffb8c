import { type Kysely, sql } from 'kysely';

// Contact messages sent from the public site. read_at null = new (the admin dashboard counts
// those). Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contact_messages (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 80),
      email text not null check (length(email) between 3 and 254),
      phone text check (phone is null or length(phone) <= 20),
      subject text not null check (length(subject) between 1 and 250),
      message text not null check (length(message) between 1 and 5000),
      ip text,
      created_at timestamptz not null default now(),
      read_at timestamptz
    )`.execute(db);
  await sql`create index contact_messages_created_idx on contact_messages (created_at desc, id)`.execute(db);
  await sql`create index contact_messages_unread_idx on contact_messages (created_at) where read_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
