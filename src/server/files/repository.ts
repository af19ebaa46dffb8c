import type { DB } from '../db/database';

/** Deletes every stored file row of an owner (documents, picture); returns their names on disk to discard after commit. */
export async function eraseOwnerFiles(trx: DB, ownerId: string): Promise<string[]> {
  const files = await trx.deleteFrom('stored_files').where('owner_id', '=', ownerId).returning('storage_name').execute();
  return files.map((file) => file.storage_name);
}
