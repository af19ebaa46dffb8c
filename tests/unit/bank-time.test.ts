import { describe, expect, it } from 'vitest';
import { bankDate, bankDateTime, bankDayRange, bankMonth, bankMonthRange, isTimeZone, previousMonth, startOfBankDay } from '../../src/server/lib/bank-time';
import { loadConfig } from '../../src/server/config';

describe("the bank's calendar (BANK_TIMEZONE)", () => {
  it('defaults to UTC and takes any IANA zone', () => {
    expect(loadConfig({}).timeZone).toBe('UTC');
    expect(loadConfig({ BANK_TIMEZONE: 'America/New_York' }).timeZone).toBe('America/New_York');
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('Nowhere/Special')).toBe(false);
  });

  it('puts an instant on the date of the zone, not of UTC', () => {
    const instant = new Date('2026-11-01T03:30:00Z');
    expect(bankDate(instant, 'UTC')).toBe('2026-11-01');
    expect(bankDate(instant, 'America/New_York')).toBe('2026-10-31');
    expect(bankMonth(instant, 'America/New_York')).toBe('2026-10');
    expect(bankDate(new Date('2026-10-31T12:00:00Z'), 'Pacific/Auckland')).toBe('2026-11-01');
  });

  it("states an instant on the bank's clock with the zone named, as mails say it", () => {
    const instant = new Date('2026-11-01T03:30:00Z');
    expect(bankDateTime(instant, 'UTC')).toBe('1 November 2026 at 03:30 (UTC)');
    expect(bankDateTime(instant, 'America/New_York')).toBe('31 October 2026 at 23:30 (America/New_York)');
  });

  it('knows days of 23 and 25 hours across daylight-saving changes', () => {
    // New York: clocks go forward on 2026-03-08 and back on 2026-11-01.
    const spring = bankDayRange('2026-03-08', 'America/New_York');
    expect(spring.from.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(spring.to.getTime() - spring.from.getTime()).toBe(23 * 3_600_000);
    const autumn = bankDayRange('2026-11-01', 'America/New_York');
    expect(autumn.from.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(autumn.to.getTime() - autumn.from.getTime()).toBe(25 * 3_600_000);
    expect(startOfBankDay('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('finds the first instant of a day whose midnight the zone skips', () => {
    // Santiago moves its clocks from 00:00 to 01:00 on 2026-09-06.
    const start = startOfBankDay('2026-09-06', 'America/Santiago');
    expect(bankDate(start, 'America/Santiago')).toBe('2026-09-06');
    expect(bankDate(new Date(start.getTime() - 1), 'America/Santiago')).toBe('2026-09-05');
  });

  it('spans months, December into January included', () => {
    const december = bankMonthRange('2026-12', 'Europe/Berlin');
    expect(december.from.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(december.to.toISOString()).toBe('2026-12-31T23:00:00.000Z');
    expect(previousMonth('2027-01')).toBe('2026-12');
    expect(previousMonth('2026-11')).toBe('2026-10');
  });
});
