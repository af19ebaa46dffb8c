import { sql } from 'kysely';
import type { DB } from '../db/database';
import { describeDatabaseError, isDatabaseUnavailable } from '../db/errors';
import { inTransaction } from '../db/transaction';
import { assert } from '../lib/errors';
import { entryHash, GENESIS_HASH } from './chain';
import { doneWithWritten, storedEntries } from './written';

/** Entries chained per sealing transaction. */
export const SEAL_BATCH_MAX = 2000;
/** Entries hashed between two turns of the event loop (a full round of 2,000 at once held it for tens of milliseconds). */
const HASH_SLICE = 200;
/** How often a process looks for entries to seal; an entry is chained within about this long (plus a batch). */
export const SEAL_INTERVAL_MS = 200;
/** The advisory lock that makes one sealer at a time (any process may be it, one round at a time). */
const SEAL_LOCK_KEY = 4_812_001;

export interface ChainHead {
  position: number;
  hash: string;
}

export async function chainHead(db: DB): Promise<ChainHead> {
  const head = await db.selectFrom('ledger_chain').select(['position', 'hash']).orderBy('position', 'desc').limit(1).executeTakeFirst();
  return head ? { position: Number(head.position), hash: head.hash } : { position: 0, hash: GENESIS_HASH };
}

/**
 * Chains committed entries that are not chained yet, in the order they were applied: each gets
 * the next position and the hash of its content, its postings and its predecessor's hash
 * (ledger/chain.ts). One sealer at a time, whichever process gets the lock; returns how many
 * entries it chained, or null when another sealer is at work.
 */
export async function sealPending(db: DB, batchMax = SEAL_BATCH_MAX): Promise<number | null> {
  let ids: string[] = [];
  const sealed = await inTransaction(db, async (trx) => {
    const lock = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${SEAL_LOCK_KEY}) as got`.execute(trx);
    if (!lock.rows[0]?.got) return null;
    const pending = await trx.selectFrom('ledger_unsealed').select('entry_id').orderBy('seq').limit(batchMax).execute();
    if (pending.length === 0) return 0;
    ids = pending.map((row) => row.entry_id);
    const entries = await storedEntries(trx, ids, 'sealer');
    let { position, hash: prevHash } = await chainHead(trx);
    const rows: Array<{ position: number; entryId: string; prevHash: string; hash: string }> = [];
    for (const id of ids) {
      // Requests waiting on this process's event loop get a turn between slices of hashing.
      if (rows.length > 0 && rows.length % HASH_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const entry = entries.get(id);
      assert(entry, 'an unsealed entry exists');
      position += 1;
      const hash = entryHash(prevHash, { ...entry, seq: position });
      rows.push({ position, entryId: id, prevHash, hash });
      prevHash = hash;
    }
    await sql`
      insert into ledger_chain (position, entry_id, prev_hash, hash)
      select * from unnest(${rows.map((row) => row.position)}::bigint[], ${rows.map((row) => row.entryId)}::uuid[],
        ${rows.map((row) => row.prevHash)}::text[], ${rows.map((row) => row.hash)}::text[])`.execute(trx);
    await trx
      .deleteFrom('ledger_unsealed')
      .where('entry_id', '=', sql<string>`any(${ids}::uuid[])`)
      .execute();
    return rows.length;
  });
  doneWithWritten(ids, 'sealer');
  return sealed;
}

/** Seals until nothing is left (tests, the verify command, shutdown); waits for a sealer at work elsewhere. */
export async function sealAll(db: DB): Promise<number> {
  let total = 0;
  for (;;) {
    const sealed = await sealPending(db);
    if (sealed === null) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    total += sealed;
    if (sealed < SEAL_BATCH_MAX) return total;
  }
}

export interface SealerLog {
  warn(details: object, message: string): void;
}

/** One chain's sealing round: how many it chained (a full batch means more are waiting), or null when another process is at it. */
export type SealRound = (db: DB) => Promise<number | null>;

/**
 * Keeps sealing in the background, every SEAL_INTERVAL_MS (at once again while batches are
 * full). Every app process and worker runs one; the advisory lock lets one of them seal at a time,
 * so the chain keeps growing while any of them is up. A failure (the database away) is logged and
 * retried. `stop()` finishes the round under way. `rounds`: the chains to seal, each in its own
 * transaction under its own lock (the ledger's; server.ts adds the audit trail's, ADR 014).
 */
export function startSealer(db: DB, log: SealerLog, intervalMs = SEAL_INTERVAL_MS, rounds: SealRound[] = [sealPending]): { stop(): Promise<void> } {
  let stopped = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      try {
        let full = false;
        for (const round of rounds) if ((await round(db)) === SEAL_BATCH_MAX) full = true;
        failures = 0;
        if (full) continue;
      } catch (error) {
        failures += 1;
        // The database away (restarting, failing over) is one line; anything else keeps its stack.
        log.warn(isDatabaseUnavailable(error) ? { reason: describeDatabaseError(error) } : { err: error }, 'sealing the ledger failed; retrying');
      }
      await sleep(failures === 0 ? intervalMs : Math.min(5_000, intervalMs * 2 ** failures));
    }
  })();
  return {
    async stop() {
      stopped = true;
      (wake as (() => void) | null)?.();
      await loop;
    },
  };
}
