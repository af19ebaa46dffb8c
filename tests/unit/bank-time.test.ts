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

  it('answers from the day it keeps exactly as the zone does, at every edge and across daylight-saving days', () => {
    // The reference asks Intl every time; bankDate keeps the last plain day it answered.
    const formats = new Map<string, Intl.DateTimeFormat>();
    const reference = (instant: Date, zone: string) => {
      const format = formats.get(zone) ?? new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
      formats.set(zone, format);
      return format.format(instant);
    };
    const zones = ['UTC', 'America/New_York', 'America/Santiago', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Europe/London'];
    const windows = ['2026-03-06T00:00:00Z', '2026-04-03T00:00:00Z', '2026-09-04T00:00:00Z', '2026-10-23T00:00:00Z', '2026-10-30T00:00:00Z'];
    let checked = 0;
    for (const zone of zones) {
      for (const start of windows) {
        const begin = new Date(start).getTime();
        // Forward in steps that fall on no round minute, then each day's first instant and the one before it.
        for (let time = begin; time < begin + 4 * 86_400_000; time += 7 * 60_000 + 13_001) {
          expect(bankDate(new Date(time), zone), `${zone} ${new Date(time).toISOString()}`).toBe(reference(new Date(time), zone));
          checked += 1;
        }
        for (let day = 0; day < 4; day += 1) {
          const date = reference(new Date(begin + day * 86_400_000), zone);
          const first = startOfBankDay(date, zone).getTime();
          for (const time of [first - 1, first, first + 1, first - 1, first + 86_400_000 - 1, first + 86_400_000]) {
            expect(bankDate(new Date(time), zone), `${zone} ${new Date(time).toISOString()}`).toBe(reference(new Date(time), zone));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20_000);
  });

  it('spans months, December into January included', () => {
    const december = bankMonthRange('2026-12', 'Europe/Berlin');
    expect(december.from.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(december.to.toISOString()).toBe('2026-12-31T23:00:00.000Z');
    expect(previousMonth('2027-01')).toBe('2026-12');
    expect(previousMonth('2026-11')).toBe('2026-10');
  });
});
