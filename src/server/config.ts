import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BANK_NAME, parseBoolean } from '../shared/build-settings';
import { DATABASE_URL_MESSAGE, isDatabaseUrl } from './db/connection-string';

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
    );

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
  DEMO_MODE: booleanFlag('DEMO_MODE', true),
  RATE_LIMITS: booleanFlag('RATE_LIMITS', true),
  CRYPTO_DEPOSITS_FILE: z.string().trim().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Environment = z.infer<typeof ZEnvironment>;

export interface Config {
  env: Environment['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  bankName: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  demoMode: boolean;
  cryptoDepositsFile: string | undefined;
  logLevel: Environment['LOG_LEVEL'];
  /** Test hooks: shorter windows and no rate limits where a test needs them. */
  rateLimits: boolean;
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
  const hostForUrl = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const publicUrl = (env.PUBLIC_URL ?? `http://${hostForUrl}:${env.PORT}`).replace(/\/$/, '');
  const domain = new URL(publicUrl).hostname.replace(/^localhost$/, 'ledgerline.localhost');
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `${env.BANK_NAME} <no-reply@${domain}>`,
    bankName: env.BANK_NAME,
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD,
    demoMode: env.DEMO_MODE,
    cryptoDepositsFile: env.CRYPTO_DEPOSITS_FILE,
    logLevel: env.LOG_LEVEL,
    rateLimits: env.RATE_LIMITS,
  };
}
