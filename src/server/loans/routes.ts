import type { FastifyInstance } from 'fastify';

// Placeholder: filled in by issue 5.
export async function loanRoutes(_app: FastifyInstance): Promise<void> {}
