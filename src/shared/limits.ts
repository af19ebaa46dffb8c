// Named limits shared by the forms and the server (TIGER_STYLE: a limit on everything).
export const PASSWORD_LENGTH_MIN = 8;
export const PASSWORD_LENGTH_MAX = 128;
export const NAME_LENGTH_MAX = 80;
export const EMAIL_LENGTH_MAX = 254;
export const ADDRESS_LENGTH_MAX = 200;
export const STATE_LENGTH_MAX = 80;
export const PHONE_LENGTH_MAX = 20;
export const TEXT_LENGTH_MAX = 500;
export const MESSAGE_LENGTH_MAX = 5000;
export const OTP_LENGTH = 6;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const UPLOAD_BYTES_MAX = 5 * 1024 * 1024;
export const REQUEST_BODY_BYTES_MAX = 64 * 1024;

export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
export const TRANSFER_CODE_TTL_MS = 5 * 60 * 1000;
export const CODE_ATTEMPTS_MAX = 5;
export const RESEND_INTERVAL_MS = 60 * 1000;
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;
export const SESSION_IDLE_MS = 15 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** The header on every answer to a signed-in request: seconds left before the session idles out. */
export const SESSION_IDLE_SECONDS_HEADER = 'x-session-idle-seconds';
/** The web app warns this long before the idle timeout, with a "Stay signed in" button. */
export const SESSION_IDLE_WARNING_MS = 60 * 1000;

// ---------------------------------------------------------------- abuse limits (ADR 016)
// Sign-in: failures slow the next attempts down instead of locking anyone out. Customer and staff
// sign-ins count apart. RATE_LIMITS=false leaves the per-account wait and the emailed code on.
/** Failed sign-ins for one account that cost nothing; each one after them makes the next attempt wait. */
export const SIGN_IN_FREE_FAILURES = 3;
/** The wait after the first failure past the free ones; it doubles with each further failure... */
export const SIGN_IN_DELAY_BASE_MS = 1000;
/** ...up to this: at most one guess a minute (60 an hour, under ASVS's 100) for an account. */
export const SIGN_IN_DELAY_MAX_MS = 60 * 1000;
/** From this many failures on, a sign-in for the account also needs a code emailed to its owner. */
export const SIGN_IN_EMAIL_CODE_AFTER_FAILURES = 10;
/** An account's failures are forgotten this long after the last one (and by a completed sign-in). */
export const SIGN_IN_FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;
/**
 * One address's failures (over every account) in an hour that cost nothing before its attempts wait
 * too: the sign-in route's own limit (20 a minute per address) allows that many in its first minute.
 */
export const SIGN_IN_ADDRESS_FREE_FAILURES = 20;
/** An address's failures are forgotten this long after its last one. */
export const SIGN_IN_ADDRESS_FAILURE_MEMORY_MS = 60 * 60 * 1000;
/** The ticket of the emailed-code step: lives 5 minutes, allows 5 tries, works once. */
export const SIGN_IN_TICKET_TTL_MS = 5 * 60 * 1000;
export const SIGN_IN_TICKET_ATTEMPTS_MAX = 5;
/**
 * Emailed sign-in codes one account may be sent in an hour for devices its owner has not used:
 * someone holding the password gets at most 3 x 5 = 15 guesses an hour at a 6-digit code (ASVS
 * allows 100 failures an hour), and the owner at most 3 mails. The owner's own browsers are not capped.
 */
export const SIGN_IN_EMAIL_CODES_PER_HOUR = 3;

// Caps on codes and money calls, per customer. Each is settable by the environment variable of
// the same name (src/server/config.ts, the README's configuration table); these are the defaults.
/** Transfer codes a customer may ask for in an hour; one more is a 429 with Retry-After. */
export const TRANSFER_CODES_PER_HOUR = 5;
/** Wrong transfer codes a customer may enter in a day; the last one holds their outgoing payments. */
export const TRANSFER_CODE_FAILURES_PER_DAY = 10;
/** How long a hold on outgoing payments lasts unless staff release it sooner. */
export const PAYMENT_HOLD_MS = 24 * 60 * 60 * 1000;
/** Calls that move money (transfers, wires, moves between own accounts) a customer may make in a minute. */
export const MONEY_CALLS_PER_MINUTE = 30;

/** JSON bodies nest at most this deep (the deepest contract needs 4); deeper is refused before anything recurses. */
export const JSON_DEPTH_MAX = 32;
/** Every date the bank accepts lies in this range (filters, value dates, dates of birth). */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2100-12-31';
/** A staff member may date an entry at most this many days before or after today. */
export const STAFF_VALUE_DATE_WINDOW_DAYS = 366;

/** The least zxcvbn score (0 to 4) a new password needs: 3 is "safely unguessable" (about 10^10 guesses). */
export const PASSWORD_SCORE_MIN = 3;
