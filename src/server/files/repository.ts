import type { Selectable } from 'kysely';
import type { DB } from '../db/database';
import type { StoredFilePurpose, StoredFilesTable, StoredMediaType } from '../db/schema';

export type StoredFileRow = Selectable<StoredFilesTable>;

export async function recordFile(
  db: DB,
  input: { ownerId: string; purpose: StoredFilePurpose; storageName: string; mediaType: StoredMediaType; sizeBytes: number },
): Promise<string> {
  const row = await db
    .insertInto('stored_files')
    .values({ owner_id: input.ownerId, purpose: input.purpose, storage_name: input.storageName, media_type: input.mediaType, size_bytes: input.sizeBytes })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A stored file's row, when it exists and (if `purposes` is given) serves one of them. */
export function findStoredFile(db: DB, id: string, purposes?: readonly StoredFilePurpose[]): Promise<StoredFileRow | undefined> {
  let query = db.selectFrom('stored_files').selectAll().where('id', '=', id);
  if (purposes) query = query.where('purpose', 'in', [...purposes]);
  return query.executeTakeFirst();
}

/** The media type of each of these files (a list shows whether a document is an image or a PDF). */
export async function fileMediaTypes(db: DB, ids: readonly string[]): Promise<Map<string, StoredMediaType>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('stored_files')
    .select(['id', 'media_type'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row.media_type]));
}

/** Deletes one file row of an owner; returns its name on disk to discard after commit (null when there was none). */
export async function deleteOwnedFile(trx: DB, id: string, ownerId: string): Promise<string | null> {
  const row = await trx.deleteFrom('stored_files').where('id', '=', id).where('owner_id', '=', ownerId).returning('storage_name').executeTakeFirst();
  return row?.storage_name ?? null;
}

/** Deletes every stored file row of an owner (documents, picture); returns their names on disk to discard after commit. */
export async function eraseOwnerFiles(trx: DB, ownerId: string): Promise<string[]> {
  const files = await trx.deleteFrom('stored_files').where('owner_id', '=', ownerId).returning('storage_name').execute();
  return files.map((file) => file.storage_name);
}
