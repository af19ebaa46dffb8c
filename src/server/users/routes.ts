import type { FastifyInstance } from 'fastify';
import { currentUser, requireUser } from '../auth/sessions';
import { toUserDto } from './presenter';

export async function userRoutes(app: FastifyInstance): Promise<void> {
  app.get('/user/me', { preHandler: requireUser }, async (request) => ({ data: await toUserDto(app.db, currentUser(request)) }));
}
