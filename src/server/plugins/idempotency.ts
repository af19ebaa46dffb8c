import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sha256 } from '../auth/crypto';
import type { AppContext } from '../context';
import { canonicalJson } from '../ledger/chain';
import { findStoredOutcome, type IdempotencyTicket, isKeyClash } from '../ledger/idempotency';
import { assert, badRequest } from '../lib/errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_\-:.]{8,100}$/;
const KEY_MISSING = 'An Idempotency-Key header is required for this request.';
const KEY_MALFORMED = 'The Idempotency-Key header must be 8 to 100 letters, digits or - _ : .';

/**
 * `config: { idempotency: true }` on a money call: it runs at most once per (user, key). The
 * service stores its outcome with the ticket in the transaction that posts; a retry with the same
 * request is answered with that outcome and posts nothing; the same key for another request is a
 * 409. Only successes are stored, so a refused request may be retried once its cause is fixed.
 *
 * `{ lookupFirst: false }` skips the read before running, for calls whose only effect is the
 * posting that stores the key: a retry then collides with the stored key (its posting rolls back)
 * or is refused, and either way the stored outcome is looked up and sent instead.
 */
export type IdempotencyOption = boolean | { lookupFirst: false };

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotency?: IdempotencyOption;
  }
  interface FastifyRequest {
    idempotency: IdempotencyTicket | null;
  }
}

/** The header as the OpenAPI document shows it on every money call (other headers pass through). */
export const ZIdempotencyHeaders = z.looseObject({
  'idempotency-key': z.string({ message: KEY_MISSING }).regex(KEY_PATTERN, KEY_MALFORMED).meta({
    description: 'A fresh random key per intended payment (8-100 of A-Z a-z 0-9 _ - : .); a retry with the same key and body replays the first answer.',
  }),
});

/** The ticket of an idempotent request (set by the hook before the handler runs). */
export function ticketOf(request: FastifyRequest): IdempotencyTicket {
  assert(request.idempotency, 'the route is declared idempotent');
  return request.idempotency;
}

function replay(reply: FastifyReply, stored: { status: number; body: unknown }): FastifyReply {
  return reply.status(stored.status).header('idempotent-replay', 'true').send(stored.body);
}

export function registerIdempotency(api: FastifyInstance, context: AppContext): void {
  api.decorateRequest('idempotency', null);
  api.addHook('onRoute', (route) => {
    if (!route.config?.idempotency || !route.schema) return;
    const existing = route.schema.headers as z.ZodObject | undefined;
    route.schema.headers = existing ? existing.extend(ZIdempotencyHeaders.shape) : ZIdempotencyHeaders;
  });
  // Before validation: the hash covers the request exactly as it was sent.
  api.addHook('preValidation', async (request, reply) => {
    const option = request.routeOptions.config.idempotency;
    if (!option || !request.user) return;
    const raw = request.headers[IDEMPOTENCY_HEADER];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key) throw badRequest(KEY_MISSING);
    if (!KEY_PATTERN.test(key)) throw badRequest(KEY_MALFORMED);
    // The whole URL (query included) and the body: a retry must be the very same request.
    const requestHash = sha256(`${request.method} ${request.url} ${canonicalJson(request.body ?? null)}`);
    request.idempotency = { userId: request.user.id, key, requestHash };
    if (option === true) {
      const earlier = await findStoredOutcome(context.db, request.idempotency);
      if (earlier) return replay(reply, earlier);
    }
  });
}

/**
 * For the error handler: the same key arrived twice at once (the first one won), or a retry of a
 * `lookupFirst: false` call was refused because the first attempt already took effect. Sends the
 * stored outcome and returns true, or returns false when there is none.
 */
export async function replayAfterError(request: FastifyRequest, reply: FastifyReply, error: unknown, context: AppContext): Promise<boolean> {
  const ticket = request.idempotency;
  const option = request.routeOptions.config.idempotency;
  if (!ticket || !option) return false;
  if (!isKeyClash(error) && option === true) return false;
  const winner = await findStoredOutcome(context.db, ticket);
  if (!winner) return false;
  replay(reply, winner);
  return true;
}
