import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      demoMode: true,
      bankName: 'Ledgerline Bank',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpUrl: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: PORT must be a number'],
    [{ PORT: '70000' }, 'PORT: PORT must be between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: DATABASE_URL must be a URL starting with postgres:// or postgresql://'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL: SMTP_URL must be a URL starting with smtp:// or smtps://'],
    [{ PUBLIC_URL: 'bank.example' }, 'PUBLIC_URL: PUBLIC_URL must be a URL starting with http:// or https://'],
    [{ ADMIN_EMAIL: 'admin' }, 'ADMIN_EMAIL: ADMIN_EMAIL must be an email address'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD: ADMIN_PASSWORD must be at least 12 characters'],
    [{ DEMO_MODE: 'maybe' }, 'DEMO_MODE: DEMO_MODE must be true or false (got "maybe")'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM: MAIL_FROM must be an address like "Bank <no-reply@bank.example>"'],
  ])('explains a bad value: %j', (env, message) => {
    try {
      loadConfig(env);
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toContain(message);
    }
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://bank.example/',
      DATABASE_URL: 'postgres://u:p@db:5432/bank',
      DATA_DIR: '/var/lib/bank',
      SMTP_URL: 'smtps://u:p@mail.example:465',
      MAIL_FROM: 'Bank <hello@bank.example>',
      BANK_NAME: 'River Credit Union',
      ADMIN_EMAIL: 'Ops@Bank.example',
      ADMIN_PASSWORD: 'a-long-admin-password',
      DEMO_MODE: 'false',
    });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://bank.example',
      databaseUrl: 'postgres://u:p@db:5432/bank',
      dataDir: '/var/lib/bank',
      smtpUrl: 'smtps://u:p@mail.example:465',
      mailFrom: 'Bank <hello@bank.example>',
      bankName: 'River Credit Union',
      adminEmail: 'ops@bank.example',
      adminPassword: 'a-long-admin-password',
      demoMode: false,
    });
  });
});
