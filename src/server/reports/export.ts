import { stringify } from 'csv-stringify';
import PDFDocument from 'pdfkit';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { TrialBalanceLineDto } from '../../shared/contracts/reports';
import { formatCents } from '../../shared/money';
import { fit, printableMetadata, registerFonts, style, write } from '../lib/pdf-text';
import type { TrialBalanceSummary } from './service';

// The trial balance as files: CSV (csv-stringify) for spreadsheets and reconciliation tools, PDF
// (pdfkit) to print and file. Both stream: a day's lines are read in chunks and written as they come.

/** Cents as a plain decimal ("-1234.05"): exact, no currency sign, as spreadsheets read numbers. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

const accountLabel = (line: TrialBalanceLineDto) => (line.ownerName ? `${line.ownerName} - ${line.name}` : line.name);

/** The CSV: one row per account that moved, then the unchanged accounts and the totals (which balance to zero). */
export function trialBalanceCsv(summary: TrialBalanceSummary, lines: AsyncIterable<TrialBalanceLineDto>): Readable {
  const csv = stringify({
    header: true,
    columns: ['date', 'account', 'account_number', 'kind', 'opening', 'debits', 'credits', 'closing'],
  });
  // Waits while the reader is behind (backpressure): a long day's file never sits whole in memory.
  const row = async (account: string, number: string, kind: string, cents: [number, number, number, number]) => {
    if (!csv.write([summary.date, account, number, kind, ...cents.map(centsToDecimal)])) await once(csv, 'drain');
  };
  (async () => {
    for await (const line of lines) {
      await row(accountLabel(line), line.number ?? '', line.kind, [line.openingCents, line.debitsCents, line.creditsCents, line.closingCents]);
    }
    const unchanged = summary.unchanged.balanceCents;
    await row(`Other accounts (${summary.unchanged.accounts}, unchanged)`, '', '', [unchanged, 0, 0, unchanged]);
    const { openingCents, debitsCents, creditsCents, closingCents } = summary.totals;
    await row('Total', '', '', [openingCents + unchanged, debitsCents, creditsCents, closingCents + unchanged]);
    csv.end();
  })().catch((error: unknown) => csv.destroy(error instanceof Error ? error : new Error(String(error))));
  return csv;
}

const PAGE = { size: 'A4', layout: 'landscape', margin: 40 } as const;
const COLUMNS = [
  { label: 'Account', width: 290, align: 'left' },
  { label: 'Number', width: 90, align: 'left' },
  { label: 'Opening', width: 100, align: 'right' },
  { label: 'Debits', width: 100, align: 'right' },
  { label: 'Credits', width: 100, align: 'right' },
  { label: 'Closing', width: 100, align: 'right' },
] as const;
const ROW_HEIGHT = 16;

/** The PDF: a title block, then the lines in a table that repeats its header on every page, and the totals. */
export function trialBalancePdf(bankName: string, summary: TrialBalanceSummary, lines: AsyncIterable<TrialBalanceLineDto>): Readable {
  const doc = new PDFDocument({
    ...PAGE,
    info: { Title: `Trial balance ${summary.date}`, Author: printableMetadata(bankName), Subject: printableMetadata(`${bankName} trial balance`) },
  });
  registerFonts(doc);
  const left = PAGE.margin;
  const bottom = () => doc.page.height - PAGE.margin - ROW_HEIGHT;

  const cells = (values: string[], bold = false) => {
    if (doc.y > bottom()) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    style(doc, bold ? 'bold' : 'regular', 9);
    let x = left;
    COLUMNS.forEach((column, index) => {
      write(doc, fit(doc, values[index] ?? '', column.width - 6), x, y, { width: column.width - 6, align: column.align });
      x += column.width;
    });
    doc.y = y + ROW_HEIGHT;
  };
  const rule = () => {
    doc
      .moveTo(left, doc.y - 3)
      .lineTo(left + COLUMNS.reduce((sum, column) => sum + column.width, 0), doc.y - 3)
      .strokeColor('#94a3b8')
      .stroke();
  };
  const header = () => {
    cells(
      COLUMNS.map((column) => column.label),
      true,
    );
    rule();
  };

  style(doc, 'bold', 16);
  write(doc, fit(doc, `${bankName}: trial balance for ${summary.date}`, doc.page.width - 2 * left), left, PAGE.margin);
  doc.x = left;
  doc.y = PAGE.margin + 20;
  style(doc, 'regular', 9)
    .moveDown(0.3)
    .text(
      `Bank day ${summary.date} (${summary.timeZone}): entries booked from ${summary.startsAt} to ${summary.endsAt}. ${summary.entries} entries; ${summary.accountsMoved} accounts moved. Stored ${summary.createdAt}.`,
    )
    .text('A posting that raises an account is a credit, one that lowers it a debit: opening - debits + credits = closing.')
    .moveDown(0.8);
  header();

  (async () => {
    for await (const line of lines) {
      cells([
        accountLabel(line),
        line.number ?? '',
        formatCents(line.openingCents),
        formatCents(line.debitsCents),
        formatCents(line.creditsCents),
        formatCents(line.closingCents),
      ]);
    }
    const unchanged = summary.unchanged.balanceCents;
    cells([`Other accounts (${summary.unchanged.accounts}, unchanged)`, '', formatCents(unchanged), formatCents(0), formatCents(0), formatCents(unchanged)]);
    rule();
    const { openingCents, debitsCents, creditsCents, closingCents } = summary.totals;
    cells(
      ['Total', '', formatCents(openingCents + unchanged), formatCents(debitsCents), formatCents(creditsCents), formatCents(closingCents + unchanged)],
      true,
    );
    doc.end();
  })().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}
