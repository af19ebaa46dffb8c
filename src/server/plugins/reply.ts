import type { FastifyReply } from 'fastify';
import { storedOutcome, type Outcome } from '../lib/outcome';

/** Sends a service's outcome as `{ data, message? }`: 201 when it created something, else 200. */
export function send(reply: FastifyReply, outcome: Outcome<unknown>): FastifyReply {
  const { status, body } = storedOutcome(outcome);
  return reply.status(status).send(body);
}
