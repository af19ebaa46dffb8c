import { describe, expect, it } from 'vitest';
import { parseBulkCsv, sheetRowOf } from '../../src/web/features/bulk-payments/parse-csv';

// A bulk payment file's problems are told by the row a spreadsheet shows (the header on row 1, a
// blank line a row of its own, a cell with a line break still one row), not by the payment's place
// in the batch, which is what the API's `row` counts.

describe('the bulk payment file, read in the browser', () => {
  it('gives each payment the spreadsheet row it is on', () => {
    const text = [
      'accountNumber,amount,name,description',
      '',
      '1234567897,10.00,Sam Taylor,Salary',
      '2345678901,20.00,Jo Park,"Two',
      'lines"',
      ',,,',
      '3456789012,30.00,Ana Cruz,Bonus',
      '',
    ].join('\n');
    const parsed = parseBulkCsv(text);
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.rows.map((row) => row.name)).toEqual(['Sam Taylor', 'Jo Park', 'Ana Cruz']);
    // Row 2 blank, row 4 the two-line cell, row 5 empty cells (left out), row 6 the third payment.
    expect(parsed.sheetRows).toEqual([3, 4, 6]);
    expect([1, 2, 3].map((row) => sheetRowOf(parsed.sheetRows, row))).toEqual([3, 4, 6]);
  });

  it('numbers a file without blank rows from row 2, under its header', () => {
    const parsed = parseBulkCsv('accountNumber,amount,name,description\r\n1234567897,1,A,x\r\n2345678901,2,B,y\r\n');
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.sheetRows).toEqual([2, 3]);
  });
});
