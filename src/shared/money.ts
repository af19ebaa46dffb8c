import { z } from 'zod';

/** The largest single amount the bank accepts: $10,000,000.00. */
export const AMOUNT_CENTS_MAX = 1_000_000_000;

const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** USD in en-US format; a missing balance shows $0 as the specification asks. */
export function formatCents(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '$0';
  return currency.format(cents / 100);
}

export function formatDollars(dollars: number | null | undefined): string {
  if (dollars === null || dollars === undefined || !Number.isFinite(dollars)) return '$0';
  return currency.format(dollars);
}

/**
 * Parses a decimal dollar amount (number or string, at most 2 decimals) into integer cents
 * without floating-point arithmetic. Returns null when it is not such an amount.
 */
export function dollarsToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  const match = /^(-)?(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const whole = Number(match[2]);
  const fraction = Number((match[3] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return match[1] ? -cents : cents;
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** How an amount looks in the OpenAPI document: decimal dollars, as a number or a string. */
export const AMOUNT_JSON_SCHEMA = {
  anyOf: [
    { type: 'number', exclusiveMinimum: 0, maximum: AMOUNT_CENTS_MAX / 100, multipleOf: 0.01 },
    { type: 'string', pattern: '^[0-9]{1,12}(\\.[0-9]{1,2})?$' },
  ],
  description: 'Decimal dollars with at most 2 places, e.g. 120.25',
  examples: [120.25],
};

/**
 * An amount past `maxCents`: its cents above it, or (when it has no cents: `dollarsToCents` gave
 * null) a number above it or plain decimal digits with more whole digits than any amount the bank
 * takes ("99999999999999999999"), so a number too large to parse is told the limit too.
 */
export const beyondLimit = (value: unknown, cents: number | null, maxCents: number): boolean =>
  cents === null
    ? (typeof value === 'number' && Number.isFinite(value) && value > maxCents / 100) ||
      (typeof value === 'string' && /^[0-9]{13,}(\.[0-9]*)?$/.test(value.trim()))
    : cents > maxCents;

/**
 * Why `value` is not an amount `dollarsToCents` reads, said of `subject` ("Amount", "Amount from
 * (USD)"): the one thing to fix, not the whole rule. A thousands separator ("1,000.00"), a minus
 * sign ("-5"), a third decimal place ("12.345"), anything else (letters, "$25"). What is accepted
 * is unchanged: the message only names what is in the way.
 */
export function amountProblem(subject: string, value: unknown): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (text.startsWith('-')) return `${subject} cannot be negative`;
  if (/^[0-9.,]+$/.test(text) && text.includes(',') && /[0-9]/.test(text)) return `${subject} must be typed without commas, e.g. 1000.00`;
  if (/^[0-9]*\.[0-9]{3,}$/.test(text) || (typeof value === 'number' && Number.isFinite(value))) return `${subject} can have at most 2 decimal places`;
  return `${subject} must be a number, e.g. 25 or 99.50`;
}

/**
 * A positive amount in dollars (as the API carries it, number or string) parsed to integer cents.
 * `missingMessage` is what an absent amount gets (the spec's 'Please fill all fields' on transfers).
 */
export const amountCents = (missingMessage: string, description = AMOUNT_JSON_SCHEMA.description) =>
  z
    .unknown()
    .meta({ ...AMOUNT_JSON_SCHEMA, description })
    .transform((value, ctx) => {
      if (value === undefined || value === null || value === '') {
        ctx.addIssue({ code: 'custom', message: missingMessage });
        return z.NEVER;
      }
      const cents = dollarsToCents(value);
      // A number too large to be an amount is told the limit, as one just above it is.
      if (beyondLimit(value, cents, AMOUNT_CENTS_MAX)) {
        ctx.addIssue({ code: 'custom', message: `Amount must be at most ${formatCents(AMOUNT_CENTS_MAX)}` });
        return z.NEVER;
      }
      // A minus sign is told as zero is: the spec's 'Amount must be greater than 0'.
      if (cents === null && !String(value).trim().startsWith('-')) {
        ctx.addIssue({ code: 'custom', message: amountProblem('Amount', value) });
        return z.NEVER;
      }
      if (cents === null || cents <= 0) {
        ctx.addIssue({ code: 'custom', message: 'Amount must be greater than 0' });
        return z.NEVER;
      }
      return cents;
    });

/**
 * One end of an amount range (a history or journal filter; empty means none): decimal dollars,
 * zero allowed, at most 2 places, up to `maxCents`; cents inside. A number past the limit is told
 * the limit, as amountCents tells it; anything else that is not such an amount is told what is in
 * the way (amountProblem).
 */
export const amountBoundCents = (name: string, maxCents: number, description: string) =>
  z
    .unknown()
    .meta({
      anyOf: [
        { type: 'number', minimum: 0, maximum: maxCents / 100, multipleOf: 0.01 },
        { type: 'string', pattern: '^[0-9]{1,12}(\\.[0-9]{1,2})?$' },
      ],
      description,
    })
    .optional()
    .transform((raw, ctx) => {
      const value = typeof raw === 'string' ? raw.trim() : raw;
      if (value === undefined || value === null || value === '') return undefined;
      const cents = dollarsToCents(value);
      if (beyondLimit(value, cents, maxCents)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be at most ${formatCents(maxCents)}` });
        return z.NEVER;
      }
      if (cents === null || cents < 0) {
        ctx.addIssue({ code: 'custom', message: amountProblem(name, value) });
        return z.NEVER;
      }
      return cents;
    });
