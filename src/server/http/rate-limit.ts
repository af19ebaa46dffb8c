import type { FastifyRequest } from 'fastify';

/** Route options for @fastify/rate-limit: `max` requests per minute from one address. */
export const perMinute = (max: number, keyGenerator?: (request: FastifyRequest) => string) => ({
  config: { rateLimit: { max, timeWindow: 60_000, ...(keyGenerator ? { keyGenerator } : {}) } },
});
