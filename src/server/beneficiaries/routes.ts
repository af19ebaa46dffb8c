import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { BENEFICIARIES_MAX, type BeneficiaryDto, ZBeneficiaryRequest } from '../../shared/contracts/beneficiaries';
import { currentUser, requireCustomer } from '../auth/sessions';
import type { BeneficiariesTable } from '../db/schema';
import { AppError, badRequest, parseInput } from '../lib/errors';
import { perMinute } from '../plugins/rate-limit';

const toDto = (row: Selectable<BeneficiariesTable>): BeneficiaryDto => ({
  _id: row.id,
  name: row.name,
  accountNumber: row.account_number,
  routingNumber: row.routing_number,
  bankName: row.bank_name,
  createdAt: new Date(row.created_at).toISOString(),
});

// Saved payees. Every query filters by the session's user: another customer's payee id is a 404.
export async function beneficiaryRoutes(app: FastifyInstance): Promise<void> {
  app.get('/beneficiaries', { preHandler: requireCustomer }, async (request) => {
    const user = currentUser(request);
    const rows = await app.db
      .selectFrom('beneficiaries')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('name')
      .orderBy('id')
      .limit(BENEFICIARIES_MAX)
      .execute();
    return { data: rows.map(toDto) };
  });

  app.post('/beneficiaries', { preHandler: requireCustomer, config: perMinute(30) }, async (request, reply) => {
    const user = currentUser(request);
    const input = parseInput(ZBeneficiaryRequest, request.body);
    const result = await app.db.transaction().execute(async (trx) => {
      // Serialize one customer's saves so the count limit holds under concurrent calls.
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().executeTakeFirstOrThrow();
      const existing = await trx
        .selectFrom('beneficiaries')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('routing_number', '=', input.routingNumber)
        .where('account_number', '=', input.accountNumber)
        .executeTakeFirst();
      if (existing) return { row: existing, created: false };
      const { count } = await trx
        .selectFrom('beneficiaries')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (Number(count) >= BENEFICIARIES_MAX) throw badRequest(`You can save at most ${BENEFICIARIES_MAX} beneficiaries. Please remove one first.`);
      const row = await trx
        .insertInto('beneficiaries')
        .values({ user_id: user.id, name: input.name, account_number: input.accountNumber, routing_number: input.routingNumber, bank_name: input.bankName })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, created: true };
    });
    // Saving a payee twice is harmless: the answer is the saved one.
    return reply
      .status(result.created ? 201 : 200)
      .send({ data: toDto(result.row), message: result.created ? 'Beneficiary saved' : 'This beneficiary is already saved' });
  });

  app.delete('/beneficiaries/:id', { preHandler: requireCustomer }, async (request) => {
    const user = currentUser(request);
    const parsed = z.object({ id: z.uuid() }).safeParse(request.params);
    if (!parsed.success) throw new AppError('not_found', 'Beneficiary not found');
    const deleted = await app.db.deleteFrom('beneficiaries').where('id', '=', parsed.data.id).where('user_id', '=', user.id).returning('id').executeTakeFirst();
    if (!deleted) throw new AppError('not_found', 'Beneficiary not found');
    return { data: { _id: deleted.id }, message: 'Beneficiary removed' };
  });
}
