import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { statementFigures } from '../../src/server/statements/content';
import { decimalOf, spreadsheetSafe } from '../../src/server/statements/export';
import type { LedgerLine } from '../../src/server/statements/repository';
import { statementMessage } from '../../src/server/statements/signature';
import { typeset } from '../../src/server/lib/pdf-text';
import { renderStatementPdf, type StatementDocument } from '../../src/server/statements/pdf';

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
  it('writes Latin-1 text in Helvetica and any other text in DejaVu Sans; only what neither has is "?"', () => {
    expect(typeset('Zoë Müller – “quotes” €5', 'regular')).toEqual({ font: 'Helvetica', text: 'Zoë Müller – “quotes” €5' });
    expect(typeset('Tab\there', 'bold')).toEqual({ font: 'Helvetica-Bold', text: 'Tab here' });
    expect(typeset('Łukasz Ševčík', 'regular')).toEqual({ font: 'DejaVuSans', text: 'Łukasz Ševčík' });
    expect(typeset('Γιώργος Папа 李 🙂', 'bold')).toEqual({ font: 'DejaVuSans-Bold', text: 'Γιώργος Папа ? ?' });
  });

  const statement = (customerName: string, description: string): StatementDocument => ({
    interim: false,
    demo: false,
    statementId: 'st_test',
    issuedAt: new Date('2025-11-01T00:05:00Z'),
    bank: { name: 'Ledgerline Bank', address: '1 Main Street', routingNumber: '021000021' },
    verifyUrl: 'http://localhost/verify-statement',
    customerName,
    account: 'checking',
    accountNumber: '1234567890',
    periodLabel: '1 October 2025 to 31 October 2025',
    timeZone: 'UTC',
    figures: statementFigures(10_000, [{ ...line(3, 2_500, 12_500), description }], { count: 1, sumCents: 2_500 }),
  });
  const textOf = (bytes: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');

  it("prints a customer's name and a description in any Latin, Greek or Cyrillic letters as they are", async () => {
    const bytes = await renderStatementPdf(statement('Łukasz Ševčík', 'Оплата за квартиру, Ιανουάριος'));
    const text = textOf(bytes);
    expect(text).toContain('Łukasz Ševčík');
    expect(text).toContain('Оплата за квартиру, Ιανουάριος');
    expect(text).toContain('$125.00');
    // Made once and kept: the same input gives the same bytes, embedded font included.
    expect((await renderStatementPdf(statement('Łukasz Ševčík', 'Оплата за квартиру, Ιανουάριος'))).equals(bytes)).toBe(true);
  });

  it('cuts a description too long for its column with an ellipsis, as close to the column as it goes', async () => {
    const long = 'Rent for the flat at 12 Harbor Street, paid on the first working day of every month without fail';
    const text = textOf(await renderStatementPdf(statement('Zoë Müller', long)));
    const shown = /(Rent for the flat.*?)…/.exec(text)?.[1] ?? '';
    expect(shown.length).toBeGreaterThan(40);
    expect(long.startsWith(shown)).toBe(true);
    expect(text).not.toContain('without fail');
    expect(text).toContain('$125.00');
  });

  it('embeds no font in a statement whose text is all Latin-1 (its text stays readable in the bytes)', async () => {
    const bytes = await renderStatementPdf(statement('Zoë Müller', 'Rent'));
    expect(textOf(bytes)).toContain('Zoë Müller');
    expect(bytes.includes('/FontFile2')).toBe(false);
    expect(bytes.includes(Buffer.from(`<${Buffer.from('$125.00', 'latin1').toString('hex')}>`))).toBe(true);
    expect((await renderStatementPdf(statement('Łukasz', 'Rent'))).includes('/FontFile2')).toBe(true);
  });
});
