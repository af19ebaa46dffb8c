import { z } from 'zod';
import { isRealDate } from '../dates';
import { DATE_MAX, DATE_MIN, EMAIL_LENGTH_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../limits';

// ---------------------------------------------------------------- text

/**
 * Control characters (C0, DEL and C1) are refused in every text field: PostgreSQL cannot store a
 * NUL, and none belongs in a name or a description. Multi-line text keeps tab and line breaks.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const SINGLE_LINE_TEXT = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const MULTI_LINE_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
export const controlCharactersMessage = (label: string) => `${label} must not contain control characters`;

/** Any string field: bounded, and free of control characters (its message names the field). */
export const safeString = (label: string, max: number, options: { multiline?: boolean; message?: string } = {}) =>
  z
    .string({ message: options.message ?? `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .regex(options.multiline ? MULTI_LINE_TEXT : SINGLE_LINE_TEXT, controlCharactersMessage(label));

/** A required text field: trimmed, not empty, bounded, no control characters. */
export const requiredText = (label: string, max: number, message = `${label} is required`, options: { multiline?: boolean } = {}) =>
  z
    .string({ message })
    .trim()
    .min(1, message)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(options.multiline ? MULTI_LINE_TEXT : SINGLE_LINE_TEXT, controlCharactersMessage(label));

/** An optional text field: trimmed; empty means absent. */
export const optionalText = (label: string, max: number, options: { multiline?: boolean } = {}) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .regex(options.multiline ? MULTI_LINE_TEXT : SINGLE_LINE_TEXT, controlCharactersMessage(label))
    .optional()
    .transform((value) => value || undefined);

export const ZEmail = z
  .string({ message: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_LENGTH_MAX, `Email must be at most ${EMAIL_LENGTH_MAX} characters`)
  // The document shows the format the pipe below enforces (JSON Schema sees only this side of it).
  .meta({ format: 'email' })
  .pipe(z.email('Please enter a valid email address'))
  .transform((email) => email.toLowerCase());

// ---------------------------------------------------------------- ids, dates, paging

export const ZUuid = z.uuid('Not a valid id');
/** `/{id}` in a path; a malformed id answers 404 (nothing has that id). */
export const ZIdParams = z.object({ id: ZUuid.describe('The id (a UUID) of what the path names; a malformed id answers 404.') });
/** `/{id}` in a path, saying whose id it is (the OpenAPI document's description): validated as ZIdParams. */
export const idParams = (description: string) => z.object({ id: ZUuid.describe(description) });
/** `/{id}` naming a customer (the back office's and the customer's own calls about one). */
export const ZCustomerIdParams = idParams("The customer's user _id.");

/** A calendar date written YYYY-MM-DD, between DATE_MIN and DATE_MAX. */
export const isoDate = (label = 'Date') =>
  z
    .string({ message: `${label} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates look like YYYY-MM-DD')
    .refine(isRealDate, 'Not a real date')
    .refine((value) => value >= DATE_MIN && value <= DATE_MAX, `${label} must be between ${DATE_MIN} and ${DATE_MAX}`);

/** The highest page a list answers (a deeper page is a search's job). */
export const PAGE_NUMBER_MAX = 100_000;

/** `?page=` of a paged list: counted from 1, with the bank's words for every way it can be wrong. */
export const pageParam = (describe = 'The page to answer, counted from 1.') =>
  z.coerce
    .number({ message: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(PAGE_NUMBER_MAX, `page must be at most ${PAGE_NUMBER_MAX}`)
    .default(1)
    .describe(describe);

/** `?pageSize=` of a paged list, up to `max` (default `fallback`). */
export const pageSizeParam = ({ max = PAGE_SIZE_MAX, fallback = PAGE_SIZE_DEFAULT, describe = 'Items per page.' } = {}) =>
  z.coerce
    .number({ message: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(max, `pageSize must be at most ${max}`)
    .default(fallback)
    .describe(describe);

export const ZPage = z.object({ page: pageParam(), pageSize: pageSizeParam() });

// ---------------------------------------------------------------- answers

/** Every failure: the message to show, a machine code, and the fields at fault. */
export const ZApiError = z
  .object({
    message: z.string().describe('What went wrong, in words to show the user.'),
    code: z.string().describe('A machine-readable code, e.g. validation, not_found, rate_limited.'),
    fields: z.record(z.string(), z.string()).optional().describe('Each request field at fault, with its message (a validation failure).'),
  })
  .meta({ id: 'ApiError' });
export type ApiFailure = z.infer<typeof ZApiError>;

/** A success: `{ data, message? }`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ data, message: z.string().optional().describe('A confirmation to show the user, when there is one.') });
/** A success that carries no data (`data: null`). */
export const ZNoData = envelope(z.null());

/** One page of a list. */
export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int().describe('This page, counted from 1.'),
    pageSize: z.number().int().describe('Items per page.'),
    total: z.number().int().describe('Items on every page together.'),
    /** True when `total` is an estimate (a search with very many matches): shown as "about N". */
    totalEstimated: z.boolean().optional().describe('True when total is an estimate (a search with very many matches).'),
  });

export interface Paginated<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalEstimated?: boolean;
}

export interface ApiSuccess<T> {
  data: T;
  message?: string;
}

/** An ISO 8601 timestamp as the API sends it. */
export const ZTimestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 time in UTC, e.g. 2026-11-24T09:30:00.000Z.' });
