import { Migrator, type MigrationProvider, type Migration, sql } from 'kysely';
import type { DB } from './database';
import { migrations } from './migrations/index';

/**
 * Runs the migrations the database has not run. `upTo` (a benchmark's "before" schema) stops after
 * that migration; null or absent runs them all. A database a newer release has migrated further
 * (a rolling upgrade, README "Upgrades") is left as it is once every migration this code knows is
 * in it: an old instance that restarts mid-upgrade starts on the newer schema, which
 * expand-then-contract keeps working for it, and `log` says so. Anything else that stops the
 * migrations (a migration of ours missing among newer ones, a failed one) is thrown, named.
 */
export async function migrateToLatest(db: DB, options: { upTo?: string | null; log?: (line: string) => void } = {}): Promise<string[]> {
  const names = Object.keys(migrations);
  const upTo = options.upTo ? names.slice(0, names.indexOf(options.upTo) + 1) : names;
  const provider: MigrationProvider = {
    getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(upTo.map((name) => [name, migrations[name] as Migration])),
  };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (!error) return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  const failed = results?.find((result) => result.status === 'Error');
  const reason = error instanceof Error ? error.message : String(error);
  if (failed) throw new Error(`Migration ${failed.migrationName} failed: ${reason}`);
  // Kysely refuses a database with migrations it was not given, which is what a newer release leaves.
  const applied = new Set(await appliedMigrations(db));
  const newer = [...applied].filter((name) => !(name in migrations));
  const missing = upTo.filter((name) => !applied.has(name));
  if (newer.length > 0 && missing.length === 0) {
    options.log?.(
      `the database has ${newer.length} migration(s) newer than this code (${newer.join(', ')}): starting without migrating, as an older instance during an upgrade`,
    );
    return [];
  }
  if (newer.length > 0)
    throw new Error(
      `The database has migrations this code does not know (${newer.join(', ')}) but not all of its own (${missing.join(', ')}): start the release that wrote them, or restore a matching backup.`,
    );
  throw new Error(`Migrations failed: ${reason}`);
}

/** The migrations the database has run (none when it was never migrated). */
async function appliedMigrations(db: DB): Promise<string[]> {
  const table = await sql<{ exists: boolean }>`select to_regclass('kysely_migration') is not null as exists`.execute(db);
  if (!table.rows[0]?.exists) return [];
  return (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((row) => row.name);
}

/**
 * The migrations this code knows that the database has not run (a newer instance's extra ones do
 * not count: expand-then-contract keeps old code working on a newer schema); all of them for a
 * database never migrated. Throws when the database cannot be reached.
 */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const done = new Set(await appliedMigrations(db));
  return Object.keys(migrations).filter((name) => !done.has(name));
}
