import { z } from 'zod';
import { EMAIL_LENGTH_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../limits';

/** A required text field: trimmed, not empty, bounded. */
export const requiredText = (label: string, max: number, message = `${label} is required`) =>
  z.string({ message }).trim().min(1, message).max(max, `${label} must be at most ${max} characters`);

export const ZEmail = z
  .string({ message: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_LENGTH_MAX, `Email must be at most ${EMAIL_LENGTH_MAX} characters`)
  .pipe(z.email('Please enter a valid email address'))
  .transform((email) => email.toLowerCase());

export const ZUuid = z.uuid('Not a valid id');

export const ZPage = z.object({
  page: z.coerce.number().int().min(1, 'page must be at least 1').max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(PAGE_SIZE_MAX, `pageSize must be at most ${PAGE_SIZE_MAX}`)
    .default(PAGE_SIZE_DEFAULT),
});

export interface Paginated<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface ApiSuccess<T> {
  data: T;
  message?: string;
}

export interface ApiFailure {
  message: string;
  code?: string;
  fields?: Record<string, string>;
}
