import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '../../shared/contracts/common';
import { ZAccountListQuery, ZJournalEntryAnswer, ZJournalPageAnswer, ZJournalQuery, ZLedgerAccountsAnswer } from '../../shared/contracts/journal';
import type { AppContext } from '../context';
import { contextOf } from '../plugins/auth';
import * as journal from './service';
import { ROLES } from '../../shared/staff-roles';

/** The whole journal and the ledger's accounts: bank staff only. */
export function journalRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (api) => {
    const tags = ['journal', 'staff'];

    api.get(
      '/admin/journal',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: {
          tags,
          summary: 'Every entry on every account (the bank’s own included), newest first, filtered and paged by key',
          querystring: ZJournalQuery,
          response: { 200: ZJournalPageAnswer },
        },
      },
      async (request) => ({ data: await journal.listJournal(contextOf(request, context), request.query) }),
    );

    api.get(
      '/admin/journal/:id',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: {
          tags,
          summary: 'One entry: all its postings with balances after, its hash and predecessor, its reversal and its audit records',
          params: idParams("The journal entry's id."),
          response: { 200: ZJournalEntryAnswer },
        },
      },
      async (request) => ({ data: await journal.journalEntry(contextOf(request, context), request.params.id) }),
    );

    api.get(
      '/admin/accounts',
      {
        config: { access: 'staff', staffRoles: ROLES.moneyReaders },
        schema: {
          tags,
          summary: 'The bank’s own ledger accounts, or one customer’s (ownerId)',
          querystring: ZAccountListQuery,
          response: { 200: ZLedgerAccountsAnswer },
        },
      },
      async (request) => ({ data: await journal.listAccounts(contextOf(request, context), request.query.ownerId) }),
    );
  };
}
