import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BANK_NAME, parseBoolean } from '../shared/build-settings';
import { MONEY_CALLS_PER_MINUTE, TRANSFER_CODE_FAILURES_PER_DAY, TRANSFER_CODES_PER_HOUR } from '../shared/limits';
import { DATABASE_URL_MESSAGE, isDatabaseUrl } from './db/connection-string';
import { BASE32_SECRET, DEMO_ADMIN_TOTP_SECRET, normaliseBase32 } from './factors/totp';
import { isTimeZone } from './lib/bank-time';

const booleanFlag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseBoolean(value, fallback);
      if (parsed === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} must be true or false (got "${value}")` });
        return z.NEVER;
      }
      return parsed;
    });

const urlWithProtocol = (name: string, protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    )
    // A scheme is case-insensitive (RFC 3986): "HTTPS://bank.example" is https.
    .transform((value) => value.replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, (scheme) => scheme.toLowerCase()));

/** A per-customer cap from the environment: a whole number from 1 to `max`, the named limit by default. */
const perCustomerCap = (name: string, fallback: number, max: number) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be between 1 and ${max}`)
    .max(max, `${name} must be between 1 and ${max}`)
    .default(fallback);

/** Processes one instance may run: more than the cores only adds context switches. */
export const WEB_CONCURRENCY_MAX = 64;

/** Who may set X-Forwarded-For: nobody (off), the nearest N proxies, or these addresses / CIDR ranges. */
export type TrustProxy = false | number | string[];

function isAddressOrRange(value: string): boolean {
  const [address = '', bits, extra] = value.split('/');
  const version = net.isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const width = Number(bits);
  return /^\d{1,3}$/.test(bits) && width <= (version === 4 ? 32 : 128);
}

const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    const lower = value.toLowerCase();
    if (lower === 'false' || lower === 'off' || lower === '0') return false;
    if (lower === 'true') {
      // Trusting every hop lets any client pick its own address with one header: no per-address limit holds.
      ctx.addIssue({
        code: 'custom',
        message: "TRUST_PROXY=true would trust any client's X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses",
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > 10) ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY must be a hop count from 0 to 10, or proxy addresses' });
      return hops;
    }
    const addresses = value.split(',').map((part) => part.trim());
    const bad = addresses.filter((address) => !isAddressOrRange(address));
    if (bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `TRUST_PROXY must be a hop count or comma-separated IP addresses or CIDR ranges (not "${bad.join(', ')}")` });
      return z.NEVER;
    }
    // A /0 range is every address: the same as true (and the proxy check would refuse it at start).
    const everyone = addresses.filter((address) => /\/0+$/.test(address));
    if (everyone.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `TRUST_PROXY range ${everyone.join(', ')} is every address, as true would be: name the proxies' addresses or ranges`,
      });
      return z.NEVER;
    }
    return addresses;
  });

/** A loan approval above $10,000 needs a second staff member unless FOUR_EYES_LOAN_ABOVE says otherwise. */
export const FOUR_EYES_LOAN_ABOVE_DEFAULT_DOLLARS = 10_000;

export const ZEnvironment = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(0, 'PORT must be between 0 and 65535')
    .max(65535, 'PORT must be between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PUBLIC_URL: urlWithProtocol('PUBLIC_URL', ['http:', 'https:']).optional(),
  DATABASE_URL: z.string().trim().refine(isDatabaseUrl, DATABASE_URL_MESSAGE).optional(),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').default('./data'),
  SMTP_URL: urlWithProtocol('SMTP_URL', ['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^(.+<[^@\s]+@[^@\s]+>|[^@\s]+@[^@\s]+)$/, 'MAIL_FROM must be an address like "Bank <no-reply@bank.example>"')
    .optional(),
  BANK_NAME: z.string().trim().min(1).max(80, 'BANK_NAME must be at most 80 characters').default(DEFAULT_BANK_NAME),
  ADMIN_EMAIL: z.email('ADMIN_EMAIL must be an email address').optional(),
  ADMIN_PASSWORD: z.string().min(12, 'ADMIN_PASSWORD must be at least 12 characters').max(128, 'ADMIN_PASSWORD must be at most 128 characters').optional(),
  ADMIN_TOTP_SECRET: z
    .string()
    .transform(normaliseBase32)
    .pipe(
      z
        .string()
        .regex(
          BASE32_SECRET,
          'ADMIN_TOTP_SECRET must be a base32 secret (letters A-Z and digits 2-7) of at least 16 characters, as authenticator apps take it (SHA-1, 6 digits, 30 s)',
        ),
    )
    .optional(),
  DEMO_MODE: booleanFlag('DEMO_MODE', true),
  RATE_LIMITS: booleanFlag('RATE_LIMITS', true),
  SESSION_CACHE: booleanFlag('SESSION_CACHE', true),
  TRANSFER_CODES_PER_HOUR: perCustomerCap('TRANSFER_CODES_PER_HOUR', TRANSFER_CODES_PER_HOUR, 1000),
  TRANSFER_CODE_FAILURES_PER_DAY: perCustomerCap('TRANSFER_CODE_FAILURES_PER_DAY', TRANSFER_CODE_FAILURES_PER_DAY, 1000),
  MONEY_CALLS_PER_MINUTE: perCustomerCap('MONEY_CALLS_PER_MINUTE', MONEY_CALLS_PER_MINUTE, 1_000_000_000),
  CRYPTO_DEPOSITS_FILE: z.string().trim().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_CONCURRENCY: z.coerce
    .number({ message: 'WEB_CONCURRENCY must be a number' })
    .int('WEB_CONCURRENCY must be a whole number')
    .min(1, `WEB_CONCURRENCY must be between 1 and ${WEB_CONCURRENCY_MAX}`)
    .max(WEB_CONCURRENCY_MAX, `WEB_CONCURRENCY must be between 1 and ${WEB_CONCURRENCY_MAX}`)
    .default(1),
  LEDGER_BATCHES_IN_FLIGHT: z.coerce
    .number({ message: 'LEDGER_BATCHES_IN_FLIGHT must be a number' })
    .int('LEDGER_BATCHES_IN_FLIGHT must be a whole number')
    .min(1, 'LEDGER_BATCHES_IN_FLIGHT must be between 1 and 8')
    .max(8, 'LEDGER_BATCHES_IN_FLIGHT must be between 1 and 8')
    .default(1), // BATCHES_IN_FLIGHT_DEFAULT of ledger/writer.ts
  TRUST_PROXY: trustProxy.optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters')
    .max(256, 'METRICS_TOKEN must be at most 256 characters')
    .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
    .optional(),
  ALLOW_HTTP: booleanFlag('ALLOW_HTTP', false),
  RUN_JOBS: booleanFlag('RUN_JOBS', true),
  BANK_SIGNING_KEY_FILE: z.string().trim().min(1).optional(),
  BANK_TIMEZONE: z.string().trim().refine(isTimeZone, 'BANK_TIMEZONE must be an IANA time zone such as UTC, Europe/London or America/New_York').default('UTC'),
  ANCHOR_FILE: z
    .string()
    .trim()
    .min(1)
    .max(4096, 'ANCHOR_FILE must be at most 4096 characters')
    .refine((value) => !value.endsWith('/') && !value.endsWith(path.sep), 'ANCHOR_FILE must name a file, not a directory')
    .optional(),
  ANCHOR_EMAIL: z.email('ANCHOR_EMAIL must be an email address').max(254, 'ANCHOR_EMAIL must be at most 254 characters').optional(),
  FOUR_EYES: z.enum(['on', 'off'], { message: 'FOUR_EYES must be on or off' }).default('on'),
  FOUR_EYES_LOAN_ABOVE: z.coerce
    .number({ message: 'FOUR_EYES_LOAN_ABOVE must be an amount in dollars' })
    .int('FOUR_EYES_LOAN_ABOVE must be a whole number of dollars')
    .min(0, 'FOUR_EYES_LOAN_ABOVE must be 0 or more')
    .max(1_000_000_000, 'FOUR_EYES_LOAN_ABOVE must be at most 1000000000')
    .default(FOUR_EYES_LOAN_ABOVE_DEFAULT_DOLLARS),
  DEMO_SECOND_ADMIN_EMAIL: z.email('DEMO_SECOND_ADMIN_EMAIL must be an email address').default('admin2@example.com'),
});

export type Environment = z.infer<typeof ZEnvironment>;

export interface Config {
  env: Environment['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  /** PUBLIC_URL was given (else publicUrl is made from HOST and PORT). */
  publicUrlGiven: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  bankName: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** The first admin's authenticator app secret (base32), enrolled when that admin is created; null: none given. */
  adminTotpSecret: string | undefined;
  demoMode: boolean;
  cryptoDepositsFile: string | undefined;
  logLevel: Environment['LOG_LEVEL'];
  /** Every per-address and per-customer limit (off only for test runs; production refuses false). */
  rateLimits: boolean;
  /**
   * Each process keeps the sessions it looked up, dropped when migration 66's triggers announce a
   * change (ADR 008). Off (SESSION_CACHE=false) behind a connection pooler in transaction mode,
   * where LISTEN does not work: every request then looks its session up.
   */
  sessionCache: boolean;
  /** The per-customer caps (src/shared/limits.ts names the defaults). */
  limits: { transferCodesPerHour: number; transferCodeFailuresPerDay: number; moneyCallsPerMinute: number };
  /** App processes serving HTTP (a primary and N-1 node:cluster workers); 1 is one process, no cluster. */
  webConcurrency: number;
  /** Ledger batches each app process posts at once (ledger/writer.ts, ADR 008). */
  ledgerBatchesInFlight: number;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses. */
  trustProxy: TrustProxy;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Plain http accepted in production (a private network only); session cookies are then not Secure. */
  allowHttp: boolean;
  /** /dev/mailbox: only in demo mode with no SMTP_URL, where it shows the mail that was not sent. */
  devMailbox: boolean;
  /** This instance runs the background jobs (mail, purges); false when `npm run worker` runs them elsewhere. */
  runJobs: boolean;
  /** The bank's Ed25519 private key (PEM) for statements and anchors; unset: DATA_DIR/signing-key.pem, made at first start. */
  signingKeyFile: string | undefined;
  /** The zone of the bank's calendar (statements, daily caps, standing orders, end of day): lib/bank-time.ts. */
  timeZone: string;
  /** Where signed anchor lines are appended (ADR 014): outside the database, reachable by every instance. */
  anchorFile: string;
  /** Each anchor line is also mailed here (through the outbox) when set. */
  anchorEmail: string | undefined;
  /** Four eyes (issue 15, ADR 023): staff money and drastic actions wait for a second staff member; false only for a single-staff bank. */
  fourEyes: boolean;
  /** A loan approval above this many cents needs a second staff member (FOUR_EYES_LOAN_ABOVE, in dollars). */
  fourEyesLoanAboveCents: number;
  /** Demo mode's second staff member (so the demo can show four eyes). */
  demoSecondAdminEmail: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty variables count as unset, as in most twelve-factor apps.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = ZEnvironment.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`));
  }
  const env = result.data;
  const refusals = env.NODE_ENV === 'production' ? productionRefusals(env, cleaned) : [];
  if (refusals.length > 0) throw new ConfigError(refusals);
  const hostForUrl = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const publicUrl = (env.PUBLIC_URL ?? `http://${hostForUrl}:${env.PORT}`).replace(/\/$/, '');
  const domain = new URL(publicUrl).hostname.replace(/^localhost$/, 'ledgerline.localhost');
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    publicUrlGiven: env.PUBLIC_URL !== undefined,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `${env.BANK_NAME} <no-reply@${domain}>`,
    bankName: env.BANK_NAME,
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD,
    adminTotpSecret: env.ADMIN_TOTP_SECRET,
    demoMode: env.DEMO_MODE,
    cryptoDepositsFile: env.CRYPTO_DEPOSITS_FILE,
    logLevel: env.LOG_LEVEL,
    rateLimits: env.RATE_LIMITS,
    sessionCache: env.SESSION_CACHE,
    limits: {
      transferCodesPerHour: env.TRANSFER_CODES_PER_HOUR,
      transferCodeFailuresPerDay: env.TRANSFER_CODE_FAILURES_PER_DAY,
      moneyCallsPerMinute: env.MONEY_CALLS_PER_MINUTE,
    },
    webConcurrency: env.WEB_CONCURRENCY,
    ledgerBatchesInFlight: env.LEDGER_BATCHES_IN_FLIGHT,
    trustProxy: env.TRUST_PROXY ?? false,
    metricsToken: env.METRICS_TOKEN,
    allowHttp: env.ALLOW_HTTP,
    devMailbox: env.DEMO_MODE && !env.SMTP_URL,
    runJobs: env.RUN_JOBS,
    signingKeyFile: env.BANK_SIGNING_KEY_FILE ? path.resolve(env.BANK_SIGNING_KEY_FILE) : undefined,
    timeZone: env.BANK_TIMEZONE,
    anchorFile: path.resolve(env.ANCHOR_FILE ?? path.join(env.DATA_DIR, 'anchors.jsonl')),
    anchorEmail: env.ANCHOR_EMAIL?.toLowerCase(),
    fourEyes: env.FOUR_EYES === 'on',
    fourEyesLoanAboveCents: env.FOUR_EYES_LOAN_ABOVE * 100,
    demoSecondAdminEmail: env.DEMO_SECOND_ADMIN_EMAIL.toLowerCase(),
  };
}

/**
 * What a production start must not run with: the demo's published passwords, mail that goes
 * nowhere (codes and reset links would never arrive), no limits on guessing and money calls, or
 * customers' sessions over plain http.
 * Each names the variable to set.
 */
function productionRefusals(env: Environment, given: Record<string, string | undefined>): string[] {
  const refusals: string[] = [];
  if (given.DEMO_MODE === undefined || env.DEMO_MODE)
    refusals.push('DEMO_MODE: must be set to false when NODE_ENV=production (demo mode creates customers whose passwords are published)');
  if (!env.SMTP_URL) refusals.push('SMTP_URL: must be set when NODE_ENV=production (codes and reset links are sent by email)');
  if (env.ADMIN_TOTP_SECRET === DEMO_ADMIN_TOTP_SECRET)
    refusals.push('ADMIN_TOTP_SECRET: must not be the demo secret when NODE_ENV=production (it is published in the README)');
  if (!env.RATE_LIMITS)
    refusals.push('RATE_LIMITS: must not be false when NODE_ENV=production (it turns off every per-address and per-customer limit; it is for test runs)');
  if (!(env.PUBLIC_URL ?? '').startsWith('https://') && !env.ALLOW_HTTP)
    refusals.push('PUBLIC_URL: must start with https:// when NODE_ENV=production (or set ALLOW_HTTP=true, on a private network only)');
  if (!env.BANK_SIGNING_KEY_FILE)
    refusals.push(
      'BANK_SIGNING_KEY_FILE: must be set when NODE_ENV=production (the Ed25519 key that signs statements and ledger anchors; make one with "npm run signing-key")',
    );
  return refusals;
}
