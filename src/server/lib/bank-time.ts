/**
 * The bank's calendar: days and months in BANK_TIMEZONE (an IANA zone, default UTC). Statements,
 * daily caps, standing orders and end of day all ask here, so "the 1st of the month" and "today"
 * mean the same instant everywhere, whatever zone a server runs in.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One Intl formatter per use and zone, made once (making one costs far more than using it). */
function formatterFor(use: 'parts' | 'readable', zone: string): Intl.DateTimeFormat {
  const key = `${use} ${zone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter =
      use === 'parts'
        ? new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
          })
        : new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            day: 'numeric',
            month: 'long',
            year: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** True for a zone name this runtime knows ("UTC", "Europe/Berlin", "America/New_York"...). */
export function isTimeZone(zone: string): boolean {
  try {
    formatterFor('parts', zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(instant: Date, zone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const fields = Object.fromEntries(
    formatterFor('parts', zone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(fields.year),
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    second: Number(fields.second),
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetMs(instant: Date, zone: string): number {
  return offsetOf(wallClock(instant, zone), instant.getTime());
}

/** The same, from the wall clock already read at that instant (epoch milliseconds). */
function offsetOf(wall: ReturnType<typeof wallClock>, time: number): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(time / 1000) * 1000;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * An instant as a person reads it on the bank's clock, the zone named: "29 November 2026 at 08:25
 * (UTC)". What emails and notices say, so their times match the statements' (which name the zone too).
 */
export function bankDateTime(instant: Date, zone: string): string {
  return `${formatterFor('readable', zone).format(instant)} (${zone})`;
}

/** The last whole day each zone answered: its date and the instants [from, to) it covers. */
const knownDays = new Map<string, { date: string; from: number; to: number }>();
const DAY_MS = 86_400_000;

/**
 * The bank's date (YYYY-MM-DD) at an instant. The ledger writer asks for every batch, and Intl's
 * formatToParts costs several microseconds (about 7 here), so the day an answer fell on is kept for
 * its zone and answers every instant inside it. Only a plain day is kept: midnight to midnight on
 * the offset the instant has; a day a daylight-saving change shortens or stretches is asked of Intl
 * each time.
 */
export function bankDate(instant: Date, zone: string): string {
  const time = instant.getTime();
  const known = knownDays.get(zone);
  if (known && time >= known.from && time < known.to) return known.date;
  const wall = wallClock(instant, zone);
  const date = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
  const offset = offsetOf(wall, time);
  const from = Date.UTC(wall.year, wall.month - 1, wall.day) - offset;
  const to = from + DAY_MS;
  if (offsetMs(new Date(from), zone) === offset && offsetMs(new Date(to - 1), zone) === offset) knownDays.set(zone, { date, from, to });
  return date;
}

/** The bank's month (YYYY-MM) at an instant. */
export function bankMonth(instant: Date, zone: string): string {
  return bankDate(instant, zone).slice(0, 7);
}

/**
 * The instant a bank date begins (its local midnight; where a zone skips midnight, the first
 * instant of that date). Two passes settle a daylight-saving change between the guess and the answer.
 */
export function startOfBankDay(date: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wallMidnight = Date.UTC(year, month - 1, day);
  let instant = wallMidnight - offsetMs(new Date(wallMidnight), zone);
  instant = wallMidnight - offsetMs(new Date(instant), zone);
  // A zone whose clocks jump over midnight: the day begins at the first instant that is on it.
  while (bankDate(new Date(instant), zone) !== date && instant < wallMidnight + DAY_MS) instant += 15 * 60 * 1000;
  return new Date(instant);
}

/** The next calendar date after a YYYY-MM-DD date. */
export function nextDate(date: string): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + 1);
  return moved.toISOString().slice(0, 10);
}

/** The calendar date before a YYYY-MM-DD date. */
export function previousDate(date: string): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() - 1);
  return moved.toISOString().slice(0, 10);
}

/** A bank date as the half-open range of instants [from, to) it covers (23, 24 or 25 hours). */
export function bankDayRange(date: string, zone: string): { from: Date; to: Date } {
  return { from: startOfBankDay(date, zone), to: startOfBankDay(nextDate(date), zone) };
}

/** A bank month (YYYY-MM) as the half-open range of instants [from, to) it covers. */
export function bankMonthRange(month: string, zone: string): { from: Date; to: Date } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const next = monthNumber === 12 ? `${pad(year + 1, 4)}-01` : `${pad(year, 4)}-${pad(monthNumber + 1)}`;
  return { from: startOfBankDay(`${month}-01`, zone), to: startOfBankDay(`${next}-01`, zone) };
}

/** The month before a YYYY-MM month. */
export function previousMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return monthNumber === 1 ? `${pad(year - 1, 4)}-12` : `${pad(year, 4)}-${pad(monthNumber - 1)}`;
}
