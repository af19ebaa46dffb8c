import { parse } from 'csv-parse/browser/esm/sync';
import { BULK_PAYMENTS_MAX, rowsFromCsvRecords } from '../../../shared/contracts/bulk-payments';

/** A CSV text (header line first) as raw payment rows, read as the server reads it; or why it cannot be read. */
export function parseBulkCsv(text: string): { rows: Array<Record<string, string>> } | { error: string } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 10_000, to: BULK_PAYMENTS_MAX + 2 }) as string[][];
  } catch (error) {
    return { error: `The CSV file could not be read: ${error instanceof Error ? error.message.replace(/^Invalid [^:]*: /, '').slice(0, 200) : 'unreadable'}` };
  }
  return rowsFromCsvRecords(records);
}
