import type { FastifyInstance } from 'fastify';

// Placeholder: filled in by issue 4.
export async function contactRoutes(_app: FastifyInstance): Promise<void> {}
