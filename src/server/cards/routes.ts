import { sql, type Selectable } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CARD_REQUEST_SENT_MESSAGE,
  CARD_STATUS_LABELS,
  CARD_STATUS_NEXT,
  type CardRequestDto,
  ZCardQueueQuery,
  ZCardRequest,
  ZCardStatusChange,
} from '../../shared/contracts/cards';
import { audit } from '../audit/audit';
import { currentUser, requireAdmin, requireCustomer } from '../auth/sessions';
import type { CardRequestsTable } from '../db/schema';
import { AppError, parseInput } from '../http/errors';
import { perMinute } from '../http/rate-limit';
import { plainMail } from '../mail/templates';

type Row = Selectable<CardRequestsTable>;
const toDto = (row: Row, customer?: { first_name: string; last_name: string; email: string }): CardRequestDto => ({
  _id: row.id,
  cardType: row.card_type,
  status: row.status,
  note: row.note,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  ...(customer ? { customer: { id: row.user_id, firstName: customer.first_name, lastName: customer.last_name, email: customer.email } } : {}),
});

export async function cardRoutes(app: FastifyInstance): Promise<void> {
  app.post('/cards/requests', { preHandler: requireCustomer, ...perMinute(10) }, async (request, reply) => {
    const user = currentUser(request);
    const input = parseInput(ZCardRequest, request.body ?? {});
    if (user.is_blocked) throw new AppError('forbidden', 'Your account is blocked. Please contact support.');
    const row = await app.db
      .insertInto('card_requests')
      .values({ user_id: user.id, card_type: input.cardType })
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch((error: { code?: string }) => {
        if (error.code === '23505') throw new AppError('conflict', `You already have a ${input.cardType} card request under review. We will get back to you.`);
        throw error;
      });
    return reply.status(201).send({ data: toDto(row), message: CARD_REQUEST_SENT_MESSAGE });
  });

  app.get('/cards/requests', { preHandler: requireCustomer }, async (request) => {
    const user = currentUser(request);
    const rows = await app.db.selectFrom('card_requests').selectAll().where('user_id', '=', user.id).orderBy('created_at', 'desc').limit(50).execute();
    return { data: rows.map((row) => toDto(row)) };
  });

  app.get('/admin/cards/requests', { preHandler: requireAdmin }, async (request) => {
    const query = parseInput(ZCardQueueQuery, request.query);
    let rows = app.db
      .selectFrom('card_requests')
      .innerJoin('users', 'users.id', 'card_requests.user_id')
      .selectAll('card_requests')
      .select(['users.first_name', 'users.last_name', 'users.email']);
    let count = app.db.selectFrom('card_requests').select((eb) => eb.fn.countAll<string>().as('total'));
    if (query.status !== 'all') {
      rows = rows.where('card_requests.status', '=', query.status);
      count = count.where('status', '=', query.status);
    }
    const items = await rows
      .orderBy('card_requests.created_at', 'asc')
      .orderBy('card_requests.id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute();
    const total = Number((await count.executeTakeFirstOrThrow()).total);
    return { data: { items: items.map((row) => toDto(row, row)), page: query.page, pageSize: query.pageSize, total } };
  });

  app.patch('/admin/cards/requests/:id', { preHandler: requireAdmin }, async (request) => {
    const parsed = z.object({ id: z.uuid() }).safeParse(request.params);
    if (!parsed.success) throw new AppError('not_found', 'Card request not found');
    const input = parseInput(ZCardStatusChange, request.body);
    const admin = currentUser(request);
    const { row, customer } = await app.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('card_requests').selectAll().where('id', '=', parsed.data.id).forUpdate().executeTakeFirst();
      if (!current) throw new AppError('not_found', 'Card request not found');
      if (!CARD_STATUS_NEXT[current.status].includes(input.status)) {
        throw new AppError(
          'conflict',
          `A ${CARD_STATUS_LABELS[current.status].toLowerCase()} request cannot become ${CARD_STATUS_LABELS[input.status].toLowerCase()}.`,
        );
      }
      const updated = await trx
        .updateTable('card_requests')
        .set({ status: input.status, note: input.note ?? current.note, decided_by: admin.id, updated_at: sql`now()` })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, request, {
        action: 'card_request.status',
        targetUserId: current.user_id,
        targetType: 'card_request',
        targetId: current.id,
        before: { status: current.status },
        after: { status: updated.status, note: updated.note },
        reason: input.note ?? null,
      });
      const owner = await trx.selectFrom('users').select(['email', 'first_name']).where('id', '=', current.user_id).executeTakeFirstOrThrow();
      return { row: updated, customer: owner };
    });
    await app.mailer
      .send(
        plainMail(
          { bankName: app.config.bankName, publicUrl: app.config.publicUrl },
          customer.email,
          `your ${row.card_type} card request: ${CARD_STATUS_LABELS[row.status].toLowerCase()}`,
          `Hello ${customer.first_name},\n\nYour ${row.card_type} card request is now: ${CARD_STATUS_LABELS[row.status]}.${row.note ? `\n\n${row.note}` : ''}`,
        ),
      )
      .catch((error: unknown) => request.log.error({ err: error }, 'card status mail failed'));
    return { data: toDto(row), message: `Card request ${CARD_STATUS_LABELS[row.status].toLowerCase()}` };
  });
}
