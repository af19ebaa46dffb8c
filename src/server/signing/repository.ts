import type { DB } from '../db/database';
import type { BankSigner } from './keys';

export interface PublishedKey {
  keyId: string;
  algorithm: 'Ed25519';
  publicKey: string;
  firstUsedAt: Date;
}

/**
 * Records the signer's public key (once). Call it in the transaction that stores a signature, so
 * every stored key id can be resolved to its public key, whatever key the bank signs with later.
 */
export async function registerSigningKey(db: DB, signer: BankSigner): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values({ key_id: signer.keyId, public_key: signer.publicKeyPem })
    .onConflict((conflict) => conflict.column('key_id').doNothing())
    .execute();
}

/** Every key the bank has signed with, oldest first. */
export async function listSigningKeys(db: DB): Promise<PublishedKey[]> {
  const rows = await db.selectFrom('signing_keys').selectAll().orderBy('first_used_at').orderBy('key_id').execute();
  return rows.map((row) => ({ keyId: row.key_id, algorithm: 'Ed25519', publicKey: row.public_key, firstUsedAt: new Date(row.first_used_at) }));
}

/** The public key of a key id, if the bank ever signed with it. */
export async function findSigningKey(db: DB, keyId: string): Promise<string | undefined> {
  const row = await db.selectFrom('signing_keys').select('public_key').where('key_id', '=', keyId).executeTakeFirst();
  return row?.public_key;
}
