import { stringify } from 'csv-stringify/sync';
import { bankDate } from '../lib/bank-time';
import { assert } from '../lib/errors';
import type { LedgerLine } from './repository';

// The two export formats: CSV (RFC 4180) for spreadsheets and OFX 2.2 (XML) for personal-finance
// programs. Pure functions of the lines the ledger gave, so tests can read them as they are.

export interface ExportInput {
  bank: { name: string; routingNumber: string };
  account: 'savings' | 'checking';
  accountNumber: string;
  lines: LedgerLine[];
  /** The period as asked (bank dates, inclusive) and as instants [from, to). */
  fromDate: string;
  toDate: string;
  range: { from: Date; to: Date };
  closingCents: number;
  timeZone: string;
  now: Date;
}

/** Decimal dollars with two places and a minus sign: what spreadsheets and OFX read as a number. */
export function decimalOf(cents: number): string {
  assert(Number.isSafeInteger(cents), 'an amount is a whole number of cents');
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return first:
 * OWASP's CSV injection list) starts with an apostrophe instead, so it shows as the text it is.
 */
export function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export const CSV_COLUMNS = ['Date', 'Value date', 'Description', 'Counterparty', 'Amount', 'Balance', 'Currency', 'Transaction ID'] as const;

/** RFC 4180: a header row, CRLF line ends, fields quoted where they need it (csv-stringify). */
export function exportCsv(input: ExportInput): string {
  const records = input.lines.map((line) => [
    bankDate(line.bookedAt, input.timeZone),
    line.valueDate,
    spreadsheetSafe(line.description),
    spreadsheetSafe(line.counterparty ?? ''),
    decimalOf(line.amountCents),
    decimalOf(line.balanceAfterCents),
    'USD',
    line.postingId,
  ]);
  return stringify(records, { header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', quoted_match: /^\s|\s$/ });
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

/** OFX's datetime: YYYYMMDDHHMMSS.XXX in UTC, with the zone named. */
const ofxTime = (instant: Date) => `${instant.toISOString().replace(/[-:T]/g, '').replace('Z', '')}[0:GMT]`;
const ofxDate = (date: string) => date.replace(/-/g, '');

/**
 * OFX 2.2 (XML), one bank statement response: the bank's routing number as BANKID, and the
 * account as ACCTID with its kind (savings and checking share the customer's account number, and
 * importers tell accounts apart by ACCTID), each posting once with its posting id as FITID (what
 * importers use to skip a line they already have), and the ledger balance at the end of the range.
 */
export function exportOfx(input: ExportInput): string {
  const asOf = input.range.to.getTime() < input.now.getTime() ? input.range.to : input.now;
  const status = '<STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>';
  const transactions = input.lines.map((line) => {
    const name = clip(line.counterparty ?? line.description, 32);
    return [
      '<STMTTRN>',
      `<TRNTYPE>${line.amountCents > 0 ? 'CREDIT' : 'DEBIT'}</TRNTYPE>`,
      `<DTPOSTED>${ofxTime(line.bookedAt)}</DTPOSTED>`,
      `<DTUSER>${ofxDate(line.valueDate)}</DTUSER>`,
      `<TRNAMT>${decimalOf(line.amountCents)}</TRNAMT>`,
      `<FITID>${line.postingId}</FITID>`,
      `<NAME>${xml(name)}</NAME>`,
      `<MEMO>${xml(clip(line.description, 255))}</MEMO>`,
      '</STMTTRN>',
    ].join('');
  });
  const balance = `<BALAMT>${decimalOf(input.closingCents)}</BALAMT><DTASOF>${ofxTime(asOf)}</DTASOF>`;
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>',
    '<OFX>',
    '<SIGNONMSGSRSV1><SONRS>',
    status,
    `<DTSERVER>${ofxTime(input.now)}</DTSERVER><LANGUAGE>ENG</LANGUAGE>`,
    `<FI><ORG>${xml(clip(input.bank.name, 32))}</ORG><FID>${input.bank.routingNumber}</FID></FI>`,
    '</SONRS></SIGNONMSGSRSV1>',
    '<BANKMSGSRSV1><STMTTRNRS>',
    `<TRNUID>${ofxTime(input.now).slice(0, 14)}</TRNUID>`,
    status,
    '<STMTRS><CURDEF>USD</CURDEF>',
    `<BANKACCTFROM><BANKID>${input.bank.routingNumber}</BANKID><ACCTID>${xml(`${input.accountNumber}-${input.account}`)}</ACCTID><ACCTTYPE>${input.account === 'savings' ? 'SAVINGS' : 'CHECKING'}</ACCTTYPE></BANKACCTFROM>`,
    `<BANKTRANLIST><DTSTART>${ofxTime(input.range.from)}</DTSTART><DTEND>${ofxTime(input.range.to)}</DTEND>`,
    ...transactions,
    '</BANKTRANLIST>',
    `<LEDGERBAL>${balance}</LEDGERBAL>`,
    `<AVAILBAL>${balance}</AVAILBAL>`,
    '</STMTRS></STMTTRNRS></BANKMSGSRSV1>',
    '</OFX>',
    '',
  ].join('\r\n');
}
