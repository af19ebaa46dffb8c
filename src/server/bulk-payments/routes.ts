import { stringify } from 'csv-stringify/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BULK_BODY_BYTES_MAX,
  BULK_CSV_COLUMNS,
  BULK_TEMPLATE_ROWS,
  ZBulkCodeAnswer,
  ZBulkPaymentRequest,
  ZBulkResultAnswer,
  ZBulkRowsFailure,
} from '../../shared/contracts/bulk-payments';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { ticketOf } from '../plugins/idempotency';
import { send } from '../plugins/reply';
import { fileResponse } from '../plugins/uploads';
import * as bulk from './service';

export function bulkPaymentRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    // The first call checks every row and emails a code bound to the batch; the call with the code posts it.
    // No per-address limit of its own: a batch is one money call, counted per customer with every
    // other (MONEY_CALLS_PER_MINUTE), and its code counts against the customer's transfer codes an
    // hour, as a transfer's does (ADR 021).
    api.post(
      '/transaction/bulk',
      {
        config: { access: 'customer', idempotency: true, moneyCall: true },
        bodyLimit: BULK_BODY_BYTES_MAX,
        schema: {
          tags: ['transactions'],
          summary: 'Pay up to 1,000 accounts at this bank at once, from JSON rows or a CSV file (two calls: the code, then the batch; all or nothing)',
          body: ZBulkPaymentRequest,
          response: { 200: ZBulkCodeAnswer, 201: ZBulkResultAnswer, 400: ZBulkRowsFailure },
        },
      },
      async (request, reply) => {
        try {
          return send(reply, await bulk.payBulk(contextOf(request, context), request.body, ticketOf(request)));
        } catch (error) {
          // The pinned shape of bad rows: `{ message, rows }` (with the usual code) instead of `fields`.
          if (error instanceof bulk.BulkRowsError) return reply.status(400).send({ message: error.message, code: error.code, rows: error.rows });
          throw error;
        }
      },
    );

    api.get(
      '/transaction/bulk/template.csv',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['transactions'],
          summary: 'The CSV template of a bulk payment: its header and two example lines',
          response: { 200: fileResponse('The template', ['text/csv']) },
        },
      },
      async (_request, reply) =>
        reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', 'attachment; filename="bulk-payments-template.csv"')
          .header('Cache-Control', 'private, no-store')
          .send(stringify(BULK_TEMPLATE_ROWS, { header: true, columns: [...BULK_CSV_COLUMNS], record_delimiter: 'windows' })),
    );
  };
}
