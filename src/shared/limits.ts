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
export const LOGIN_FAILURES_MAX = 5;
export const LOGIN_LOCK_MS = 15 * 60 * 1000;

/** JSON bodies nest at most this deep (the deepest contract needs 4); deeper is refused before anything recurses. */
export const JSON_DEPTH_MAX = 32;
/** Every date the bank accepts lies in this range (filters, value dates, dates of birth). */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2100-12-31';
/** A staff member may date an entry at most this many days before or after today. */
export const STAFF_VALUE_DATE_WINDOW_DAYS = 366;
