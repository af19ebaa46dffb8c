import { BANK_NAME } from './settings';

// THE page titles: every page names itself, then the bank (and the back office for staff pages),
// so a tab, a bookmark or a screen reader's first words say where one is.

/** A public or customer page's title: "Transactions - Ledgerline Bank". */
export const pageTitle = (page: string): string => `${page} - ${BANK_NAME}`;

/** A back office page's title: "Users - Ledgerline Bank back office". */
export const staffPageTitle = (page: string): string => `${page} - ${BANK_NAME} back office`;
