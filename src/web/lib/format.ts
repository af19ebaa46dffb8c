// How the web app writes money, dates and counts: every page formats through this module (ESLint
// refuses Intl formatters and toLocale*String elsewhere in src/web), so the same amount or date
// reads the same everywhere.

/**
 * Money: the API carries dollars (`formatDollars`), figures computed here or by the back office
 * are cents (`formatCents`). Both are the one USD formatter of src/shared/money.ts, which the
 * server's messages use too; a missing amount shows $0 as the specification asks.
 */
export { formatCents, formatDollars } from '../../shared/money';

const compactUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
/** A chart axis label: $1.2K, $35M. */
export const formatCentsCompact = (cents: number) => compactUsd.format(cents / 100);

const count = new Intl.NumberFormat('en-US');
/** A count of things: 12,345. */
export const formatNumber = (value: number) => count.format(value);

const styles = {
  /** Jan 5, 2026 */
  date: { year: 'numeric', month: 'short', day: 'numeric' },
  /** Jan 5 */
  day: { month: 'short', day: 'numeric' },
  /** Jan 2026 */
  month: { year: 'numeric', month: 'short' },
  /** Jan */
  monthName: { month: 'short' },
  /** January 2026 (a statement's month) */
  monthLong: { year: 'numeric', month: 'long' },
  /** Jan 5, 2026, 3:04 PM */
  dateTime: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  /** Jan 5, 2026, 3:04:05 PM (the audit log, where seconds order events) */
  dateTimeSeconds: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
  /** 3:04 PM */
  time: { hour: 'numeric', minute: '2-digit' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof styles;

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (style: DateStyle, utc: boolean) => {
  const key = `${style}:${utc}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { ...styles[style], ...(utc ? { timeZone: 'UTC' } : {}) });
    formatters.set(key, found);
  }
  return found;
};

/**
 * A date or a moment. A calendar date written YYYY-MM-DD (a value date, a due date) is the same
 * day everywhere, so it is read and written in UTC; an ISO timestamp (booked at, submitted at)
 * is shown in the reader's time zone.
 */
export function formatDate(value: string | Date, style: DateStyle = 'date'): string {
  const calendar = typeof value === 'string' && CALENDAR_DATE.test(value);
  const date = typeof value === 'string' ? new Date(calendar ? `${value}T00:00:00Z` : value) : value;
  if (Number.isNaN(date.getTime())) return typeof value === 'string' ? value : '';
  return formatter(style, calendar).format(date);
}

/** A month written YYYY-MM (a statement's period): January 2026. */
export const formatMonth = (month: string) => formatDate(`${month}-01`, 'monthLong');
