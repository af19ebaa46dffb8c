import { Migrator, type MigrationProvider, type Migration, sql } from 'kysely';
import type { DB } from './database';
import { migrations } from './migrations/index';

/**
 * Runs the migrations the database has not run. `upTo` (a benchmark's "before" schema) stops after
 * that migration; null or absent runs them all.
 */
export async function migrateToLatest(db: DB, options: { upTo?: string | null } = {}): Promise<string[]> {
  const names = Object.keys(migrations);
  const upTo = options.upTo ? names.slice(0, names.indexOf(options.upTo) + 1) : names;
  const provider: MigrationProvider = {
    getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(upTo.map((name) => [name, migrations[name] as Migration])),
  };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * The migrations this code knows that the database has not run (a newer instance's extra ones do
 * not count: expand-then-contract keeps old code working on a newer schema). Throws when the
 * database cannot be reached or was never migrated.
 */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const done = new Set(applied.rows.map((row) => row.name));
  return Object.keys(migrations).filter((name) => !done.has(name));
}
