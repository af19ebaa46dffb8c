import type { FastifyRequest } from 'fastify';

/**
 * A route's `config` fragment for @fastify/rate-limit: at most `max` requests per minute from one
 * address (or per `keyGenerator` key). Use as `config: { access, ...perMinute(10) }`.
 */
export const perMinute = (max: number, keyGenerator?: (request: FastifyRequest) => string) => ({
  rateLimit: { max, timeWindow: 60_000, ...(keyGenerator ? { keyGenerator } : {}) },
});
