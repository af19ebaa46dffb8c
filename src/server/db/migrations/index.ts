import type { Migration } from 'kysely';
import * as identity from './2026-11-21-01-identity';
import * as ledger from './2026-11-21-02-ledger';
import * as customerServices from './2026-11-21-05-customer-services';
import * as admin from './2026-11-21-06-admin';
import * as adminCounters from './2026-11-21-06-admin-counters';
import * as contacts from './2026-11-21-04-contacts';
import * as loanRepayments from './2026-11-21-07-loan-repayments';
import * as phoneE164 from './2026-11-23-08-phone-e164';
import * as ledgerChain from './2026-11-23-09-ledger-chain';
import * as rateLimits from './2026-11-23-10-rate-limits';
import * as mailOutbox from './2026-11-24-11-mail-outbox';
import * as knownDevices from './2026-11-24-13b-known-devices';
import * as signingKeys from './2026-11-24-14-signing-keys';
import * as statements from './2026-11-24-30-statements';
import * as notifications from './2026-11-24-31-notifications';
import * as auditChain from './2026-11-24-40-audit-chain';
import * as abuseLimits from './2026-11-24-42-abuse-limits';
import * as standingOrders from './2026-11-24-43-standing-orders';
import * as paymentRequests from './2026-11-24-46-payment-requests';
import * as backOffice from './2026-11-24-47-back-office';
import * as secondFactors from './2026-11-24-48-second-factors';
import * as oneSignInTicket from './2026-11-24-49-one-sign-in-ticket';
import * as unloggedRateLimits from './2026-11-24-49b-unlogged-rate-limits';
import * as recovery from './2026-11-24-53-recovery';
import * as adminAtScale from './2026-11-24-55-admin-at-scale';
import * as paymentApprovals from './2026-11-24-55b-payment-approvals';
import * as staffRoles from './2026-11-24-55c-staff-roles';
import * as approvals from './2026-11-24-55d-approvals';
import * as trialBalancePositions from './2026-11-24-56-trial-balance-positions';
import * as setBasedBalanceChecks from './2026-11-24-57-set-based-balance-checks';
import * as wordSearch from './2026-11-25-58-word-search';
import * as dashboardStandingOrders from './2026-11-25-59-dashboard-standing-orders';
import * as usersNewestWords from './2026-11-26-61-users-newest-words';
import * as planRows from './2026-11-26-62-plan-rows';
import * as journalAmountIndex from './2026-11-26-63-journal-amount-index';
import * as historyWords from './2026-11-26-63b-history-words';
import * as ledgerStatementReferences from './2026-11-27-64-ledger-statement-references';
import * as cheaperRowChecks from './2026-11-28-65-cheaper-row-checks';
import * as sessionChangeNotices from './2026-11-29-66-session-change-notices';
import * as standingOrderNameCheck from './2026-11-29-67-standing-order-name-check';
import * as ledgerTextLimits from './2026-11-29-68-ledger-text-limits';
import * as bankMode from './2026-12-01-69-bank-mode';

// Dated and frozen: add new migrations at the end, never edit a landed one.
export const migrations: Record<string, Migration> = {
  '2026-11-21-01-identity': identity,
  '2026-11-21-02-ledger': ledger,
  '2026-11-21-05-customer-services': customerServices,
  '2026-11-21-06-admin': admin,
  '2026-11-21-06-admin-counters': adminCounters,
  '2026-11-21-04-contacts': contacts,
  '2026-11-21-07-loan-repayments': loanRepayments,
  '2026-11-23-08-phone-e164': phoneE164,
  '2026-11-23-09-ledger-chain': ledgerChain,
  '2026-11-23-10-rate-limits': rateLimits,
  '2026-11-24-11-mail-outbox': mailOutbox,
  '2026-11-24-13b-known-devices': knownDevices,
  '2026-11-24-14-signing-keys': signingKeys,
  '2026-11-24-30-statements': statements,
  '2026-11-24-31-notifications': notifications,
  '2026-11-24-40-audit-chain': auditChain,
  '2026-11-24-42-abuse-limits': abuseLimits,
  '2026-11-24-43-standing-orders': standingOrders,
  '2026-11-24-46-payment-requests': paymentRequests,
  '2026-11-24-47-back-office': backOffice,
  '2026-11-24-48-second-factors': secondFactors,
  '2026-11-24-49-one-sign-in-ticket': oneSignInTicket,
  '2026-11-24-49b-unlogged-rate-limits': unloggedRateLimits,
  '2026-11-24-53-recovery': recovery,
  '2026-11-24-55-admin-at-scale': adminAtScale,
  '2026-11-24-55b-payment-approvals': paymentApprovals,
  '2026-11-24-55c-staff-roles': staffRoles,
  '2026-11-24-55d-approvals': approvals,
  '2026-11-24-56-trial-balance-positions': trialBalancePositions,
  '2026-11-24-57-set-based-balance-checks': setBasedBalanceChecks,
  '2026-11-25-58-word-search': wordSearch,
  '2026-11-25-59-dashboard-standing-orders': dashboardStandingOrders,
  '2026-11-26-61-users-newest-words': usersNewestWords,
  '2026-11-26-62-plan-rows': planRows,
  '2026-11-26-63-journal-amount-index': journalAmountIndex,
  '2026-11-26-63b-history-words': historyWords,
  '2026-11-27-64-ledger-statement-references': ledgerStatementReferences,
  '2026-11-28-65-cheaper-row-checks': cheaperRowChecks,
  '2026-11-29-66-session-change-notices': sessionChangeNotices,
  '2026-11-29-67-standing-order-name-check': standingOrderNameCheck,
  '2026-11-29-68-ledger-text-limits': ledgerTextLimits,
  '2026-12-01-69-bank-mode': bankMode,
};
