import { parse } from 'csv-parse/browser/esm/sync';
import { BULK_PAYMENTS_MAX, rowsFromCsvRecords } from '../../../shared/contracts/bulk-payments';

/**
 * A CSV text (header line first) as raw payment rows, read as the server reads it, each with the row
 * a spreadsheet shows it on (a blank line is a row there; a cell with a line break is not two); or
 * why it cannot be read.
 */
export function parseBulkCsv(text: string): { rows: Array<Record<string, string>>; sheetRows: number[] } | { error: string } {
  let parsed: Array<{ record: string[]; info: { records: number; empty_lines: number } }>;
  try {
    parsed = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 10_000,
      to: BULK_PAYMENTS_MAX + 2,
      info: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    return { error: `The CSV file could not be read: ${error instanceof Error ? error.message.replace(/^Invalid [^:]*: /, '').slice(0, 200) : 'unreadable'}` };
  }
  return rowsFromCsvRecords(
    parsed.map((each) => each.record),
    (index) => (parsed[index] ? parsed[index].info.records + parsed[index].info.empty_lines : index + 1),
  );
}

/**
 * The spreadsheet row of the batch's `row`th payment (the bank numbers payments 1, 2, ...; the file
 * has its header on row 1 and may have blank rows): what the person fixing the file looks for.
 */
export const sheetRowOf = (sheetRows: number[], row: number) => sheetRows[row - 1] ?? row + 1;
