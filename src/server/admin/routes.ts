import type { FastifyInstance } from 'fastify';

// Placeholder: filled in by issue 6.
export async function adminRoutes(_app: FastifyInstance): Promise<void> {}
