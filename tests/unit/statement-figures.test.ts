import { describe, expect, it } from 'vitest';
import { statementFigures } from '../../src/server/statements/content';
import { decimalOf, spreadsheetSafe } from '../../src/server/statements/export';
import type { LedgerLine } from '../../src/server/statements/repository';
import { statementMessage } from '../../src/server/statements/signature';
import { toWinAnsi } from '../../src/server/statements/pdf';

const line = (seq: number, amountCents: number, balanceAfterCents: number): LedgerLine => ({
  postingId: `p${seq}`,
  entryId: `e${seq}`,
  seq,
  amountCents,
  balanceAfterCents,
  description: 'Line',
  counterparty: null,
  valueDate: '2025-10-01',
  bookedAt: new Date('2025-10-01T00:00:00Z'),
});

describe('statementFigures', () => {
  it('adds up a run of postings from the opening balance', () => {
    const figures = statementFigures(1_000, [line(3, 500, 1_500), line(7, -200, 1_300)], { count: 2, sumCents: 300 });
    expect(figures).toMatchObject({ openingCents: 1_000, totalInCents: 500, totalOutCents: 200, closingCents: 1_300 });
    expect(statementFigures(1_000, [], { count: 0, sumCents: 0 })).toMatchObject({ openingCents: 1_000, closingCents: 1_000 });
  });

  it('refuses a running balance, an order or a total the ledger does not agree with (a bug: an assertion)', () => {
    expect(() => statementFigures(1_000, [line(3, 500, 1_400)], { count: 1, sumCents: 500 })).toThrow(/running balance/);
    expect(() => statementFigures(1_000, [line(7, 500, 1_500), line(3, 500, 2_000)], { count: 2, sumCents: 1_000 })).toThrow(/order/);
    expect(() => statementFigures(1_000, [line(3, 500, 1_500)], { count: 2, sumCents: 700 })).toThrow(/every posting/);
    expect(() => statementFigures(1_000, [line(3, 500, 1_500)], { count: 1, sumCents: 400 })).toThrow(/sum/);
  });
});

describe('export cells', () => {
  it('writes cents as decimal dollars', () => {
    expect([decimalOf(0), decimalOf(5), decimalOf(-5), decimalOf(123_456), decimalOf(-100)]).toEqual(['0.00', '0.05', '-0.05', '1234.56', '-1.00']);
  });

  it('makes a cell a spreadsheet would run as a formula plain text', () => {
    for (const formula of ['=SUM(A1:A9)', '+1', '-1+2', '@cmd', '\tx', '\rx']) expect(spreadsheetSafe(formula)).toBe(`'${formula}`);
    expect(spreadsheetSafe('Rent = 1200')).toBe('Rent = 1200');
  });
});

describe('the signed message', () => {
  const fields = {
    statementId: '0193a1b2-0000-7000-8000-000000000000',
    keyId: '0123456789abcdef',
    issuedAt: '2025-11-01T00:07:00.000Z',
    customerName: 'Alex Morgan',
    accountNumberMasked: '******7890',
    account: 'checking' as const,
    period: '2025-10',
    sha256: 'a'.repeat(64),
    ledgerChainPosition: 42,
    ledgerChainHash: 'b'.repeat(64),
  };

  it('is the documented lines, joined by LF, without a final newline', () => {
    expect(statementMessage(fields)).toBe(
      [
        'ledgerline-statement-signature-v1',
        'statement-id: 0193a1b2-0000-7000-8000-000000000000',
        'key-id: 0123456789abcdef',
        'issued-at: 2025-11-01T00:07:00.000Z',
        'customer-name: Alex Morgan',
        'account-number-masked: ******7890',
        'account: checking',
        'period: 2025-10',
        `sha256: ${'a'.repeat(64)}`,
        'ledger-chain-position: 42',
        `ledger-chain-hash: ${'b'.repeat(64)}`,
      ].join('\n'),
    );
  });

  it('refuses a value with a line break (two statements must never share a message)', () => {
    expect(() => statementMessage({ ...fields, customerName: 'Alex\nperiod: 2020-01' })).toThrow(/one line/);
  });
});

describe('text on the PDF', () => {
  it('keeps what Helvetica can write and replaces the rest', () => {
    expect(toWinAnsi('Zoë Müller – “quotes” €5')).toBe('Zoë Müller – “quotes” €5');
    expect(toWinAnsi('Łukasz Ševčík 李')).toBe('?ukasz Ševcík ?');
  });
});
