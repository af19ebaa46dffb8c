import { Migrator, type MigrationProvider, type Migration } from 'kysely';
import type { DB } from './database';
import { migrations } from './migrations/index';

const provider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };

export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
