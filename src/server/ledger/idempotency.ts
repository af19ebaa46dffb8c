import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db/database';
import { AppError, badRequest } from '../http/errors';
import { sha256 } from '../auth/crypto';
import { canonicalJson } from './chain';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_\-:.]{8,100}$/;

export interface IdempotentAnswer {
  status: number;
  body: unknown;
}

/** Stores the answer in the caller's transaction, next to what the request posted. */
export type SaveAnswer = (trx: DB, answer: IdempotentAnswer, entryId?: string | null) => Promise<void>;

/** Who asked, with which key and request: for writers that store the answer themselves. */
export interface IdempotencyTicket {
  userId: string;
  key: string;
  requestHash: string;
}

function keyOf(request: FastifyRequest): string {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key) throw badRequest('An Idempotency-Key header is required for this request.');
  if (!KEY_PATTERN.test(key)) throw badRequest('The Idempotency-Key header must be 8 to 100 letters, digits or - _ : .');
  return key;
}

function hashOf(request: FastifyRequest): string {
  // The whole URL (query included) and the body: a retry must be the very same request.
  return sha256(`${request.method} ${request.url} ${canonicalJson(request.body ?? null)}`);
}

async function replay(db: DB, userId: string, key: string, requestHash: string): Promise<IdempotentAnswer | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== requestHash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was already used for a different request.');
  }
  return { status: row.status_code, body: row.response };
}

const isKeyClash = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === 'idempotency_keys_pkey';

/**
 * Runs a money-moving request at most once per (user, Idempotency-Key): a retry with the same body
 * gets the first answer and posts nothing; the same key with another body is a 409. Only
 * successful answers are kept (they are saved in the transaction that posts), so a refused
 * request may be retried after the customer fixes the cause.
 *
 * `lookupFirst: false` skips the read before running, for calls whose only effect is the posting
 * that stores the key: a retry then collides with the stored key (the posting rolls back) or is
 * refused, and either way the stored answer is looked up and returned instead.
 */
export async function idempotent(
  db: DB,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  run: (save: SaveAnswer, ticket: IdempotencyTicket) => Promise<IdempotentAnswer>,
  options: { lookupFirst?: boolean } = {},
): Promise<FastifyReply> {
  const key = keyOf(request);
  const requestHash = hashOf(request);
  if (options.lookupFirst !== false) {
    const earlier = await replay(db, userId, key, requestHash);
    if (earlier) return reply.status(earlier.status).header('idempotent-replay', 'true').send(earlier.body);
  }
  const save: SaveAnswer = async (trx, answer, entryId = null) => {
    await trx
      .insertInto('idempotency_keys')
      .values({ user_id: userId, key, request_hash: requestHash, status_code: answer.status, response: JSON.stringify(answer.body), entry_id: entryId })
      .execute();
  };
  try {
    const answer = await run(save, { userId, key, requestHash });
    return reply.status(answer.status).send(answer.body);
  } catch (error) {
    // The same key arrived twice at once (the first one won), or a retry was refused because the
    // first attempt already took effect: answer as the first attempt did.
    if (isKeyClash(error) || options.lookupFirst === false) {
      const winner = await replay(db, userId, key, requestHash);
      if (winner) return reply.status(winner.status).header('idempotent-replay', 'true').send(winner.body);
    }
    throw error;
  }
}
