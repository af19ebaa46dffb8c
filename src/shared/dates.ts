import { z } from 'zod';

/** True for a real calendar date written YYYY-MM-DD (no 2026-02-30). */
export function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A date of birth of an adult (18 to 120 years old), with the form's own messages. */
export const dateOfBirth = (messages: { required: string; underage: string }) =>
  z
    .string({ message: messages.required })
    .trim()
    .min(1, messages.required)
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date of birth must be a date (YYYY-MM-DD)')
    .refine(isRealDate, 'Date of birth must be a real date')
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      const now = new Date();
      const adult = new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate()));
      const oldest = new Date(Date.UTC(now.getUTCFullYear() - 120, 0, 1));
      return date <= adult && date >= oldest;
    }, messages.underage);

/** Today's date (UTC) as YYYY-MM-DD. */
export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A YYYY-MM-DD date moved by whole days. */
export function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}
