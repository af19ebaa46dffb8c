import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApprovalPendingAnswer } from '../../shared/contracts/approvals';
import { envelope, idParams, ZCustomerIdParams } from '../../shared/contracts/common';
import {
  ZAdminAccountUpdate,
  ZAdminReversalRequest,
  ZAdminTransactionPageAnswer,
  ZAdminTransactionRequest,
  ZAdminTransactionUpdate,
  ZInternalTransferRequest,
  ZMonthlyTotalsAnswer,
  ZMonthlyTotalsQuery,
  ZTransactionAnswer,
  ZTransactionLinesAnswer,
  ZTransactionListQuery,
  ZTransactionPageAnswer,
  ZTransferCodeAnswer,
  ZTransferRequest,
  ZWireTransferRequest,
} from '../../shared/contracts/transactions';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import { ticketOf } from '../plugins/idempotency';
import { perMinute } from '../plugins/rate-limit';
import { send } from '../plugins/reply';
import * as repository from './repository';
import * as transactions from './service';
import { ROLES } from '../../shared/staff-roles';

const entryIdParams = idParams("A journal entry's id, or the _id of one of its history lines.");

const ZUserIdParams = z.object({ userId: z.uuid().describe("The customer's user _id.") });
const ZReversal = envelope(
  z.object({ reversedEntryId: z.string().describe('The entry reversed.'), reversalEntryId: z.string().describe('The reversal entry just posted.') }),
);
const ZCorrection = envelope(
  z.object({
    account: z.object({ number: z.string(), savings: z.number(), checking: z.number() }).describe('The account number and both balances now, in dollars.'),
    entryId: z.string().nullable().describe('The correction entry posted; null when no balance changed.'),
  }),
);
/** The reason of a reversal: in the body, or as ?reason= for clients that send no DELETE body. */
const ZReasonQuery = z.object({ reason: ZAdminReversalRequest.shape.reason.optional() });
const ZReversalBody = z.preprocess((body) => body ?? {}, z.object({ reason: ZAdminReversalRequest.shape.reason.optional() }));

export function transactionRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    // ---------------------------------------------------------------- customer
    api.get(
      '/transaction',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['transactions'],
          summary: 'My history, newest first; filtered by account, type, value dates, words (description or counterparty) and amount range',
          querystring: ZTransactionListQuery,
          response: { 200: ZTransactionPageAnswer },
        },
      },
      async (request) => ({ data: await repository.listTransactions(context.db, { ...request.query, userId: contextOf(request, context).actor.user.id }) }),
    );

    api.get(
      '/transaction/complete',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['transactions'],
          summary: 'My history without reversed entries',
          querystring: ZTransactionListQuery,
          response: { 200: ZTransactionPageAnswer },
        },
      },
      async (request) => ({
        data: await repository.listTransactions(context.db, { ...request.query, userId: contextOf(request, context).actor.user.id, completedOnly: true }),
      }),
    );

    api.get(
      '/transaction/monthly-totals',
      {
        config: { access: 'customer' },
        schema: {
          tags: ['transactions'],
          summary: 'Money in and out of my accounts per month, the last 12 months (by value date; moves between my own accounts left out)',
          querystring: ZMonthlyTotalsQuery,
          response: { 200: ZMonthlyTotalsAnswer },
        },
      },
      async (request) => ({ data: await transactions.myMonthlyTotals(contextOf(request, context), request.query.account) }),
    );

    // Its only effect is the posting that stores the key, so the key is checked there.
    api.post(
      '/transaction/internal-transfer',
      {
        config: { access: 'customer', idempotency: { lookupFirst: false }, moneyCall: true },
        schema: {
          tags: ['transactions'],
          summary: 'Move money between my own accounts',
          body: ZInternalTransferRequest,
          response: { 201: ZTransactionAnswer },
        },
      },
      async (request, reply) => send(reply, await transactions.internalTransfer(contextOf(request, context), request.body, ticketOf(request))),
    );

    // The first call emails a code (rate-limited); the call with the code posts.
    api.post(
      '/transaction/transfer',
      {
        config: { access: 'customer', idempotency: true, moneyCall: true, ...perMinute(30) },
        schema: {
          tags: ['transactions'],
          summary: 'Send money to an account here or at another bank (two calls: the code, then the transfer)',
          body: ZTransferRequest,
          response: { 200: ZTransferCodeAnswer, 201: ZTransactionAnswer },
        },
      },
      async (request, reply) => send(reply, await transactions.transfer(contextOf(request, context), request.body, ticketOf(request))),
    );

    api.post(
      '/transaction/wire-transfer',
      {
        config: { access: 'customer', idempotency: true, moneyCall: true, ...perMinute(30) },
        schema: {
          tags: ['transactions'],
          summary: 'Send an international wire (two calls: the code, then the wire)',
          body: ZWireTransferRequest,
          response: { 200: ZTransferCodeAnswer, 201: ZTransactionAnswer },
        },
      },
      async (request, reply) => send(reply, await transactions.wireTransfer(contextOf(request, context), request.body, ticketOf(request))),
    );

    // ---------------------------------------------------------------- staff
    api.get(
      '/transaction/admin',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: {
          tags: ['transactions', 'staff'],
          summary: "Every customer's lines (the journal)",
          querystring: ZTransactionListQuery,
          response: { 200: ZAdminTransactionPageAnswer },
        },
      },
      async (request) => ({ data: await repository.listAdminTransactions(context.db, { ...request.query, userId: null }) }),
    );

    api.get(
      '/transaction/admin/:userId',
      {
        config: { access: 'staff', staffRoles: ROLES.anyStaff },
        schema: {
          tags: ['transactions', 'staff'],
          summary: "One customer's lines",
          params: ZUserIdParams,
          querystring: ZTransactionListQuery,
          response: { 200: ZAdminTransactionPageAnswer },
        },
      },
      async (request) => ({ data: await repository.listAdminTransactions(context.db, { ...request.query, userId: request.params.userId }) }),
    );

    api.post(
      '/transaction/admin/:userId',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, idempotency: true },
        schema: {
          tags: ['transactions', 'staff'],
          summary: "Credit or debit a customer's account (a reasoned, audited adjustment)",
          params: ZUserIdParams,
          body: ZAdminTransactionRequest,
          response: { 201: ZTransactionAnswer, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) =>
        send(reply, await transactions.postStaffEntry(contextOf(request, context), request.params.userId, request.body, ticketOf(request))),
    );

    api.put(
      '/transaction/admin/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.finance },
        schema: {
          tags: ['transactions', 'staff'],
          summary: 'Correct how an entry reads (a note; the entry never changes)',
          params: entryIdParams,
          body: ZAdminTransactionUpdate,
          response: { 200: ZTransactionLinesAnswer },
        },
      },
      async (request) => ({
        data: await transactions.describeEntry(contextOf(request, context), request.params.id, request.body.description, request.body.reason),
        message: 'Transaction updated',
      }),
    );

    api.delete(
      '/transaction/admin/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, idempotency: true },
        schema: {
          tags: ['transactions', 'staff'],
          summary: 'Reverse an entry (its reversal is posted; nothing is deleted)',
          params: entryIdParams,
          querystring: ZReasonQuery,
          body: ZReversalBody,
          response: { 200: ZReversal, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => {
        const { reason } = ZAdminReversalRequest.parse({ reason: request.body.reason ?? request.query.reason });
        return send(reply, await transactions.reverseEntry(contextOf(request, context), request.params.id, reason, ticketOf(request)));
      },
    );

    api.put(
      '/user/admin/account/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.finance, idempotency: true },
        schema: {
          tags: ['transactions', 'staff'],
          summary: "Set a customer's balances (correction entries) and account number",
          params: ZCustomerIdParams,
          body: ZAdminAccountUpdate,
          response: { 200: ZCorrection, 202: ZApprovalPendingAnswer },
        },
      },
      async (request, reply) => send(reply, await transactions.correctAccount(contextOf(request, context), request.params.id, request.body, ticketOf(request))),
    );
  };
}
