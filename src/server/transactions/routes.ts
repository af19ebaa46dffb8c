import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ZAdminReversalRequest, ZAdminTransactionUpdate, ZTransactionListQuery } from '../../shared/contracts/transactions';
import { currentUser, requireAdmin, requireCustomer } from '../auth/sessions';
import { parseInput } from '../http/errors';
import { perMinute } from '../http/rate-limit';
import { idempotent } from '../ledger/idempotency';
import { listAdminTransactions, listTransactions } from './queries';
import { adminPostTransaction, adminReverse, adminUpdateAccount, adminUpdateDescription, findEntry, internalTransfer, transfer, wireTransfer } from './service';

const ZIdParam = z.object({ id: z.uuid('Not a valid id') });
const ZUserIdParam = z.object({ userId: z.uuid('Not a valid id') });

export async function transactionRoutes(app: FastifyInstance): Promise<void> {
  // ---------------------------------------------------------------- customer
  app.get('/transaction', { preHandler: requireCustomer }, async (request) => {
    const query = parseInput(ZTransactionListQuery, request.query);
    return { data: await listTransactions(app.db, { ...query, userId: currentUser(request).id }) };
  });

  app.get('/transaction/complete', { preHandler: requireCustomer }, async (request) => {
    const query = parseInput(ZTransactionListQuery, request.query);
    return { data: await listTransactions(app.db, { ...query, userId: currentUser(request).id, completedOnly: true }) };
  });

  app.post('/transaction/internal-transfer', { preHandler: requireCustomer }, async (request, reply) => {
    const user = currentUser(request);
    // Its only effect is the posting that stores the key, so the key is checked there (see idempotent()).
    return idempotent(app.db, request, reply, user.id, (_save, ticket) => internalTransfer(app, user, request.body, ticket), { lookupFirst: false });
  });

  // The first call emails a code (rate-limited); the call with the code posts.
  app.post('/transaction/transfer', { preHandler: requireCustomer, ...perMinute(30) }, async (request, reply) => {
    const user = currentUser(request);
    return idempotent(app.db, request, reply, user.id, (save, ticket) => transfer(app, user, request.body, save, ticket));
  });

  app.post('/transaction/wire-transfer', { preHandler: requireCustomer, ...perMinute(30) }, async (request, reply) => {
    const user = currentUser(request);
    return idempotent(app.db, request, reply, user.id, (save, ticket) => wireTransfer(app, user, request.body, save, ticket));
  });

  // ---------------------------------------------------------------- staff
  app.get('/transaction/admin', { preHandler: requireAdmin }, async (request) => {
    const query = parseInput(ZTransactionListQuery, request.query);
    return { data: await listAdminTransactions(app.db, { ...query, userId: null }) };
  });

  app.get('/transaction/admin/:userId', { preHandler: requireAdmin }, async (request) => {
    const { userId } = parseInput(ZUserIdParam, request.params);
    const query = parseInput(ZTransactionListQuery, request.query);
    return { data: await listAdminTransactions(app.db, { ...query, userId }) };
  });

  app.post('/transaction/admin/:userId', { preHandler: requireAdmin }, async (request, reply) => {
    const { userId } = parseInput(ZUserIdParam, request.params);
    const staff = currentUser(request);
    return idempotent(app.db, request, reply, staff.id, (save) => adminPostTransaction(app, request, userId, request.body, save));
  });

  app.put('/transaction/admin/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = parseInput(ZIdParam, request.params);
    const input = parseInput(ZAdminTransactionUpdate, request.body);
    const lines = await adminUpdateDescription(app, request, id, input.description, input.reason);
    return { data: lines, message: 'Transaction updated' };
  });

  app.delete('/transaction/admin/:id', { preHandler: requireAdmin }, async (request, reply) => {
    const { id } = parseInput(ZIdParam, request.params);
    // The reason comes in the body, or as ?reason= for clients that send no DELETE body.
    const query = (request.query ?? {}) as Record<string, unknown>;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { reason } = parseInput(ZAdminReversalRequest, { reason: body.reason ?? query.reason });
    await findEntry(app.db, id);
    const staff = currentUser(request);
    return idempotent(app.db, request, reply, staff.id, (save) => adminReverse(app, request, id, reason, save));
  });

  app.put('/user/admin/account/:id', { preHandler: requireAdmin }, async (request, reply) => {
    const { id } = parseInput(ZIdParam, request.params);
    const staff = currentUser(request);
    return idempotent(app.db, request, reply, staff.id, (save) => adminUpdateAccount(app, request, id, request.body, save));
  });
}
