import type { FastifyInstance } from 'fastify';

// Placeholder: filled in by issue 5.
export async function beneficiaryRoutes(_app: FastifyInstance): Promise<void> {}
