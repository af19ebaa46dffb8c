import { describe, expect, it } from 'vitest';
import { describeSchedule, nextOccurrence, occurrenceDate } from '../../src/server/standing-orders/schedule';
import { retryTime } from '../../src/server/standing-orders/job';

describe('standing order schedule', () => {
  it('pays a monthly order of the 31st on the last day of shorter months, and the 31st again after', () => {
    const schedule = { frequency: 'monthly' as const, startDate: '2027-12-31' };
    expect([0, 1, 2, 3, 4, 5].map((index) => occurrenceDate(schedule, index))).toEqual([
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
      '2028-05-31',
    ]);
    expect(occurrenceDate({ frequency: 'monthly', startDate: '2026-01-29' }, 1)).toBe('2026-02-28');
    expect(occurrenceDate({ frequency: 'monthly', startDate: '2026-11-30' }, 3)).toBe('2027-02-28');
  });

  it('ends at the count, the end date (inclusive), or after a one-off', () => {
    const weekly = { frequency: 'weekly' as const, startDate: '2026-12-28', endDate: '2027-01-11', count: null };
    expect([0, 1, 2, 3].map((index) => nextOccurrence(weekly, index))).toEqual(['2026-12-28', '2027-01-04', '2027-01-11', null]);
    expect(nextOccurrence({ ...weekly, endDate: null, count: 2 }, 2)).toBeNull();
    expect(nextOccurrence({ frequency: 'once', startDate: '2026-12-01', endDate: null, count: null }, 0)).toBe('2026-12-01');
    expect(nextOccurrence({ frequency: 'once', startDate: '2026-12-01', endDate: null, count: null }, 1)).toBeNull();
  });

  it('reads as the code email says it', () => {
    expect(describeSchedule({ frequency: 'monthly', startDate: '2026-12-31', endDate: null, count: 6 })).toBe(
      'monthly on day 31, from 2026-12-31, 6 payments at most',
    );
    expect(describeSchedule({ frequency: 'weekly', startDate: '2026-12-01', endDate: null, count: null })).toBe('weekly, from 2026-12-01, until cancelled');
  });

  it("retries at the bank day's retry hour, or an hour later once it has passed", () => {
    expect(retryTime(new Date('2026-12-01T00:10:00Z'), 'UTC').toISOString()).toBe('2026-12-01T16:00:00.000Z');
    expect(retryTime(new Date('2026-12-01T05:10:00Z'), 'America/New_York').toISOString()).toBe('2026-12-01T21:00:00.000Z');
    expect(retryTime(new Date('2026-12-01T20:30:00Z'), 'UTC').toISOString()).toBe('2026-12-01T21:30:00.000Z');
  });
});
