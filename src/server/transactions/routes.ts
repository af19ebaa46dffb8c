import type { FastifyInstance } from 'fastify';

// Placeholder: filled in by issue 3.
export async function transactionRoutes(_app: FastifyInstance): Promise<void> {}
