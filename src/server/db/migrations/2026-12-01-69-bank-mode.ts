import { type Kysely, sql } from 'kysely';

// Which kind of bank the database holds, recorded by the first start (seed.ts `settleBankMode`):
// a demo (demo customers and a second admin with published passwords) or a real bank. A later
// start, or `npm run worker`, whose DEMO_MODE says the other refuses to run, so a start that
// forgot DEMO_MODE=false (demo mode is the default) cannot put published sign-ins into a real
// bank's database, nor a worker send its mail to the development outbox. One row. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table bank_mode (
      only_row boolean primary key default true check (only_row),
      demo boolean not null,
      recorded_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
