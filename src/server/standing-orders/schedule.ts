import type { StandingOrderFrequency } from '../../shared/contracts/standing-orders';
import { addDays } from '../../shared/dates';

/** What decides an order's dates: its frequency, first date, and the optional end date and count. */
export interface Schedule {
  frequency: StandingOrderFrequency;
  startDate: string;
  endDate: string | null;
  count: number | null;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The date of occurrence `index` (0 is the first), ignoring the end: weekly adds whole weeks;
 * monthly keeps the start's day of the month, or the last day of a shorter month (an order
 * started on the 31st pays on 30 April and 28 or 29 February, and on the 31st again in May).
 * Dates are the bank's calendar dates (BANK_TIMEZONE): no time of day is involved.
 */
export function occurrenceDate(schedule: Pick<Schedule, 'frequency' | 'startDate'>, index: number): string {
  if (schedule.frequency === 'weekly') return addDays(schedule.startDate, 7 * index);
  if (schedule.frequency === 'once') return schedule.startDate;
  const [year, month, day] = schedule.startDate.split('-').map(Number) as [number, number, number];
  const monthsFromYearZero = year * 12 + (month - 1) + index;
  const targetYear = Math.floor(monthsFromYearZero / 12);
  const targetMonth = (monthsFromYearZero % 12) + 1;
  return `${pad(targetYear, 4)}-${pad(targetMonth)}-${pad(Math.min(day, daysInMonth(targetYear, targetMonth)))}`;
}

/** The date of occurrence `index`, or null when the schedule has ended before it (count, end date, or a one-off paid). */
export function nextOccurrence(schedule: Schedule, index: number): string | null {
  if (schedule.frequency === 'once' && index > 0) return null;
  if (schedule.count !== null && index >= schedule.count) return null;
  const date = occurrenceDate(schedule, index);
  if (schedule.endDate !== null && date > schedule.endDate) return null;
  return date;
}

/** How the schedule reads in the code's email and the summary ("monthly on day 31, from ..."). */
export function describeSchedule(schedule: Schedule): string {
  if (schedule.frequency === 'once') return `once, on ${schedule.startDate}`;
  const every = schedule.frequency === 'weekly' ? 'weekly' : `monthly on day ${Number(schedule.startDate.slice(8))}`;
  const limits = [
    schedule.endDate ? `until ${schedule.endDate}` : null,
    schedule.count ? `${schedule.count} payment${schedule.count === 1 ? '' : 's'} at most` : null,
  ].filter(Boolean);
  return `${every}, from ${schedule.startDate}${limits.length > 0 ? `, ${limits.join(', ')}` : ', until cancelled'}`;
}
