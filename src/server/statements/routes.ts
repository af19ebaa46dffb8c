import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  STATEMENT_VERIFY_FORM,
  STATEMENT_VERIFY_PER_MINUTE,
  ZExportQuery,
  ZPublicKeysAnswer,
  ZStatementCalendarAnswer,
  ZStatementListAnswer,
  ZStatementParams,
  ZStatementQuery,
  ZVerifyAnswer,
} from '../../shared/contracts/statements';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { perMinute } from '../plugins/rate-limit';
import { fileResponse, multipartSchema, readForm } from '../plugins/uploads';
import * as statements from './service';

/** A file for the customer to save: never shown inline as active content, never cached. */
function sendDownload(reply: FastifyReply, file: { body: Buffer | string; contentType: string; fileName: string }): FastifyReply {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .send(file.body);
}

export function statementRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    api.get(
      '/statements',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['statements'],
          summary: 'My statements: every closed month in which an account moved, newest first',
          response: { 200: ZStatementListAnswer },
        },
      },
      async (request) => ({ data: await statements.listMyStatements(contextOf(request, context)) }),
    );

    api.get(
      '/statements/calendar',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['statements'],
          summary: "The bank's current month and date (BANK_TIMEZONE): the month an interim statement covers",
          response: { 200: ZStatementCalendarAnswer },
        },
      },
      async () => ({ data: statements.calendar(context) }),
    );

    api.get(
      '/statements/public-key',
      {
        config: { access: 'public' },
        schema: {
          tags: ['statements'],
          summary: 'Every public key the bank has signed statements with (Ed25519, SPKI PEM), and the current one',
          response: { 200: ZPublicKeysAnswer },
        },
      },
      async () => ({ data: await statements.publicKeys(context) }),
    );

    api.get(
      '/statements/:month.pdf',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['statements'],
          summary: "A closed month's signed statement as issued, or the current month's interim one (not signed, not kept)",
          params: ZStatementParams,
          querystring: ZStatementQuery,
          response: { 200: fileResponse('The statement', ['application/pdf']) },
        },
      },
      async (request, reply) => {
        const file = await statements.statementPdf(contextOf(request, context), request.params.month, request.query.account);
        reply.header('X-Statement-Interim', String(file.interim));
        return sendDownload(reply, { body: file.bytes, contentType: 'application/pdf', fileName: `${file.fileName}.pdf` });
      },
    );

    // Public: a landlord or a lender checks what a customer gave them. Only the bytes' hash is
    // looked up; the per-address limit keeps it from being a guessing service.
    api.post(
      '/statements/verify',
      {
        config: { access: 'public', ...perMinute(STATEMENT_VERIFY_PER_MINUTE) },
        schema: {
          tags: ['statements'],
          summary: 'Is this PDF a statement the bank issued, byte for byte?',
          ...multipartSchema(STATEMENT_VERIFY_FORM),
          response: { 200: ZVerifyAnswer },
        },
      },
      async (request) => {
        const form = await readForm(request, STATEMENT_VERIFY_FORM);
        return { data: await statements.verifyStatement(context, form.files.file.bytes) };
      },
    );

    api.get(
      '/transaction/export',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['statements', 'transactions'],
          summary: 'My transactions booked on the bank dates from..to (inclusive), as CSV (RFC 4180) or OFX 2.2',
          querystring: ZExportQuery,
          response: { 200: fileResponse('The export', ['text/csv', 'application/x-ofx']) },
        },
      },
      async (request, reply) => sendDownload(reply, await statements.exportTransactions(contextOf(request, context), request.query)),
    );
  };
}
