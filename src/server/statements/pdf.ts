import PDFDocument from 'pdfkit';
import { formatCents } from '../../shared/money';
import { assert } from '../lib/errors';
import { bankDateTime } from '../lib/bank-time';
import { fit, printableMetadata, registerFonts, style, write } from '../lib/pdf-text';
import type { StatementFigures } from './content';

/** Everything printed on a statement; the figures were checked against the ledger (content.ts). */
export interface StatementDocument {
  /** A signed statement, or the current month's interim one (not signed, not stored). */
  interim: boolean;
  /** DEMO_MODE: every page says it is a demo bank's, as every web page does (a demo's statement proves nothing). */
  demo: boolean;
  statementId: string | null;
  issuedAt: Date;
  bank: { name: string; address: string; routingNumber: string };
  verifyUrl: string;
  customerName: string;
  account: 'savings' | 'checking';
  accountNumber: string;
  /** "1 October 2026 to 31 October 2026" */
  periodLabel: string;
  timeZone: string;
  figures: StatementFigures;
}

// Letter, in points.
const PAGE = { width: 612, height: 792, margin: 50 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const FOOTER_HEIGHT = 40;
const ROW_HEIGHT = 15;
const COLUMNS = {
  date: { x: PAGE.margin, width: 64 },
  description: { x: PAGE.margin + 70, width: 250 },
  amount: { x: PAGE.margin + 326, width: 88 },
  balance: { x: PAGE.margin + 420, width: CONTENT_WIDTH - 420 },
};
const GREY = '#4b5563';
const INK = '#111827';

/** The Subject an interim statement's PDF carries: how the verify page tells such a file from an edited statement. */
export const INTERIM_SUBJECT = 'Interim statement (not signed)';

/**
 * Whether a file calls itself an interim statement (its Subject, as renderStatementPdf writes it: a
 * literal string, its parentheses escaped). Anyone can write that into a file: it only changes what a
 * file that is not genuine is told, never makes one genuine.
 */
export function declaresInterim(bytes: Buffer): boolean {
  return bytes.includes(Buffer.from(`(${INTERIM_SUBJECT.replace(/[()]/g, '\\$&')})`, 'latin1'));
}

/** Renders the statement; the same input gives the same bytes (the creation date is the issue time). */
export function renderStatementPdf(input: StatementDocument): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    bufferPages: true,
    // Uncompressed content streams: what the PDF says is readable in its bytes, so anyone can see
    // that changing a digit of the text changes the bytes the bank signed.
    compress: false,
    info: {
      Title: `${input.interim ? 'Interim statement' : 'Statement'} ${input.account} ${input.periodLabel}`,
      Author: printableMetadata(input.bank.name),
      Subject: input.statementId ? `Statement ${input.statementId}` : INTERIM_SUBJECT,
      Creator: 'Ledgerline',
      Producer: 'Ledgerline',
      CreationDate: input.issuedAt,
    },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  drawHeader(doc, input);
  drawSummary(doc, input.figures);
  drawLines(doc, input);
  drawFooters(doc, input);
  doc.end();
  return done;
}

type Doc = PDFKit.PDFDocument;

function drawHeader(doc: Doc, input: StatementDocument): void {
  style(doc, 'bold', 16).fillColor(INK);
  write(doc, input.bank.name, PAGE.margin, PAGE.margin, { width: 300 });
  style(doc, 'regular', 9).fillColor(GREY);
  write(doc, input.bank.address, PAGE.margin, PAGE.margin + 22, { width: 300 });
  write(doc, `Routing number ${input.bank.routingNumber}`, PAGE.margin, PAGE.margin + 34, { width: 300 });
  if (input.demo) {
    style(doc, 'bold', 9).fillColor('#b91c1c');
    write(doc, 'Demo bank: no real money. Not a real bank statement.', PAGE.margin, PAGE.margin + 46, { width: CONTENT_WIDTH });
  }

  style(doc, 'bold', 14).fillColor(input.interim ? '#b45309' : INK);
  write(doc, input.interim ? 'Interim statement' : 'Account statement', PAGE.margin + 260, PAGE.margin, { width: CONTENT_WIDTH - 260, align: 'right' });
  if (input.interim) {
    style(doc, 'bold', 9);
    write(doc, 'NOT SIGNED - not a statement of record', PAGE.margin + 260, PAGE.margin + 20, { width: CONTENT_WIDTH - 260, align: 'right' });
  }

  const top = PAGE.margin + 62;
  const label = (text: string, value: string, y: number) => {
    style(doc, 'regular', 9).fillColor(GREY);
    write(doc, text, PAGE.margin, y, { width: 110 });
    style(doc, 'regular', 10).fillColor(INK);
    write(doc, value, PAGE.margin + 110, y, { width: CONTENT_WIDTH - 110 });
  };
  const accountName = input.account === 'savings' ? 'Savings account' : 'Checking account';
  label('Customer', input.customerName, top);
  label('Account', `${accountName} ${input.accountNumber}`, top + 15);
  label('Period', `${input.periodLabel} (${input.timeZone})`, top + 30);
  label('Statement ID', input.statementId ?? 'none: interim statements are not signed or kept', top + 45);
  label('Issued', bankDateTime(input.issuedAt, input.timeZone), top + 60);
  doc.y = top + 85;
}

function drawSummary(doc: Doc, figures: StatementFigures): void {
  const top = doc.y;
  const cells: Array<[string, string]> = [
    ['Opening balance', formatCents(figures.openingCents)],
    ['Money in', formatCents(figures.totalInCents)],
    ['Money out', formatCents(figures.totalOutCents)],
    ['Closing balance', formatCents(figures.closingCents)],
  ];
  const width = CONTENT_WIDTH / cells.length;
  doc.rect(PAGE.margin, top, CONTENT_WIDTH, 40).fillColor('#f3f4f6').fill();
  cells.forEach(([name, value], index) => {
    const x = PAGE.margin + index * width + 8;
    style(doc, 'regular', 8).fillColor(GREY);
    write(doc, name, x, top + 7, { width: width - 16 });
    style(doc, 'bold', 11).fillColor(INK);
    write(doc, value, x, top + 20, { width: width - 16 });
  });
  doc.y = top + 56;
}

function drawTableHeader(doc: Doc, y: number): number {
  style(doc, 'bold', 8).fillColor(GREY);
  write(doc, 'Value date', COLUMNS.date.x, y, { width: COLUMNS.date.width });
  write(doc, 'Description', COLUMNS.description.x, y, { width: COLUMNS.description.width });
  write(doc, 'Amount', COLUMNS.amount.x, y, { width: COLUMNS.amount.width, align: 'right' });
  write(doc, 'Balance', COLUMNS.balance.x, y, { width: COLUMNS.balance.width, align: 'right' });
  doc
    .moveTo(PAGE.margin, y + 11)
    .lineTo(PAGE.margin + CONTENT_WIDTH, y + 11)
    .lineWidth(0.5)
    .strokeColor('#9ca3af')
    .stroke();
  return y + ROW_HEIGHT;
}

function drawRow(doc: Doc, y: number, row: { date: string; description: string; amount: string; balance: string; bold?: boolean }): void {
  style(doc, row.bold ? 'bold' : 'regular', 9).fillColor(INK);
  write(doc, row.date, COLUMNS.date.x, y, { width: COLUMNS.date.width });
  write(doc, fit(doc, row.description, COLUMNS.description.width), COLUMNS.description.x, y, { width: COLUMNS.description.width });
  write(doc, row.amount, COLUMNS.amount.x, y, { width: COLUMNS.amount.width, align: 'right' });
  write(doc, row.balance, COLUMNS.balance.x, y, { width: COLUMNS.balance.width, align: 'right' });
}

function drawLines(doc: Doc, input: StatementDocument): void {
  const { figures } = input;
  const bottom = PAGE.height - PAGE.margin - FOOTER_HEIGHT;
  let y = drawTableHeader(doc, doc.y);
  const rows = [
    { date: '', description: 'Opening balance', amount: '', balance: formatCents(figures.openingCents), bold: true },
    ...figures.lines.map((line) => ({
      date: line.valueDate,
      description: line.counterparty && !line.description.includes(line.counterparty) ? `${line.description} - ${line.counterparty}` : line.description,
      amount: formatCents(line.amountCents),
      balance: formatCents(line.balanceAfterCents),
    })),
    { date: '', description: 'Closing balance', amount: '', balance: formatCents(figures.closingCents), bold: true },
  ];
  for (const row of rows) {
    if (y + ROW_HEIGHT > bottom) {
      doc.addPage();
      y = drawTableHeader(doc, PAGE.margin);
    }
    drawRow(doc, y, row);
    y += ROW_HEIGHT;
  }
  if (figures.lines.length === 0) {
    style(doc, 'regular', 9).fillColor(GREY);
    write(doc, 'No transactions in this period.', COLUMNS.description.x, y + 4, { width: COLUMNS.description.width });
  }
}

/** Every page: where to check the statement, its id, and the page count (known once all pages exist). */
function drawFooters(doc: Doc, input: StatementDocument): void {
  const range = doc.bufferedPageRange();
  assert(range.count >= 1, 'a statement has a page');
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    // Writing below the bottom margin would start a new page: the footer sits in the margin.
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.margin - FOOTER_HEIGHT + 12;
    doc
      .moveTo(PAGE.margin, y - 6)
      .lineTo(PAGE.margin + CONTENT_WIDTH, y - 6)
      .lineWidth(0.5)
      .strokeColor('#d1d5db')
      .stroke();
    style(doc, 'regular', 8).fillColor(GREY);
    const [first, second] = input.interim
      ? ['Interim statement: not signed and not kept by the bank, so it cannot be verified.', 'The statement of record is issued after the month ends.']
      : [`Statement ID ${input.statementId ?? ''}`, `Check that this statement is genuine at ${input.verifyUrl}`];
    write(doc, input.demo ? `${first} - Demo bank: no real money` : first, PAGE.margin, y, { width: CONTENT_WIDTH - 70 });
    write(doc, fit(doc, second, CONTENT_WIDTH - 70), PAGE.margin, y + 11, { width: CONTENT_WIDTH - 70 });
    write(doc, `Page ${index - range.start + 1} of ${range.count}`, PAGE.margin + CONTENT_WIDTH - 70, y, { width: 70, align: 'right' });
    doc.page.margins.bottom = PAGE.margin;
  }
}
