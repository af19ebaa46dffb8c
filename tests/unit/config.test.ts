import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { DEMO_ADMIN_TOTP_SECRET } from '../../src/server/factors/totp';

const ADMIN_TOTP_SECRET_RULE =
  'ADMIN_TOTP_SECRET must be a base32 secret (letters A-Z and digits 2-7) of at least 16 characters, as authenticator apps take it (SHA-1, 6 digits, 30 s)';

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
    [{ ANCHOR_EMAIL: 'auditors' }, 'ANCHOR_EMAIL: ANCHOR_EMAIL must be an email address'],
    [{ ANCHOR_FILE: '/var/lib/ledgerline/' }, 'ANCHOR_FILE: ANCHOR_FILE must name a file, not a directory'],
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

  describe('refuses an unsafe production start, naming the variable', () => {
    const production = {
      NODE_ENV: 'production',
      DEMO_MODE: 'false',
      SMTP_URL: 'smtp://mail.example:587',
      PUBLIC_URL: 'https://bank.example',
      BANK_SIGNING_KEY_FILE: '/etc/ledgerline/signing-key.pem',
    };
    const problemsOf = (env: Record<string, string | undefined>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
    };

    it('starts with every safe value given', () => {
      expect(loadConfig(production)).toMatchObject({ isProduction: true, demoMode: false, devMailbox: false, allowHttp: false, trustProxy: false });
    });

    it.each([
      ['DEMO_MODE unset', { DEMO_MODE: undefined }, 'DEMO_MODE: must be set to false'],
      ['DEMO_MODE empty', { DEMO_MODE: '' }, 'DEMO_MODE: must be set to false'],
      ['DEMO_MODE=true', { DEMO_MODE: 'true' }, 'DEMO_MODE: must be set to false'],
      ['SMTP_URL unset', { SMTP_URL: undefined }, 'SMTP_URL: must be set when NODE_ENV=production'],
      ['PUBLIC_URL unset', { PUBLIC_URL: undefined }, 'PUBLIC_URL: must start with https://'],
      ['PUBLIC_URL over http', { PUBLIC_URL: 'http://bank.example' }, 'PUBLIC_URL: must start with https://'],
      ['PUBLIC_URL over http, ALLOW_HTTP=false', { PUBLIC_URL: 'http://bank.example', ALLOW_HTTP: 'false' }, 'PUBLIC_URL: must start with https://'],
      ['BANK_SIGNING_KEY_FILE unset', { BANK_SIGNING_KEY_FILE: undefined }, 'BANK_SIGNING_KEY_FILE: must be set when NODE_ENV=production'],
      ['RATE_LIMITS=false', { RATE_LIMITS: 'false' }, 'RATE_LIMITS: must not be false when NODE_ENV=production'],
      ['RATE_LIMITS=0', { RATE_LIMITS: '0' }, 'RATE_LIMITS: must not be false when NODE_ENV=production'],
    ])('%s', (_label, change, message) => {
      const problems = problemsOf({ ...production, ...change });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(message);
    });

    it('takes plain http only with ALLOW_HTTP=true', () => {
      expect(loadConfig({ ...production, PUBLIC_URL: 'http://10.0.0.5:3000', ALLOW_HTTP: 'true' })).toMatchObject({
        allowHttp: true,
        publicUrl: 'http://10.0.0.5:3000',
      });
    });

    it('reads the scheme of PUBLIC_URL in any case (RFC 3986)', () => {
      expect(loadConfig({ ...production, PUBLIC_URL: 'HTTPS://bank.example' }).publicUrl).toBe('https://bank.example');
    });

    it('lists every refusal at once', () => {
      expect(problemsOf({ NODE_ENV: 'production' }).map((problem) => problem.split(':')[0])).toEqual([
        'DEMO_MODE',
        'SMTP_URL',
        'PUBLIC_URL',
        'BANK_SIGNING_KEY_FILE',
      ]);
    });

    it('does not apply outside production', () => {
      expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ demoMode: true, devMailbox: true });
      // Test runs turn the limits off (the browser suite signs up many customers from one address).
      expect(loadConfig({ NODE_ENV: 'test', RATE_LIMITS: 'false' }).rateLimits).toBe(false);
    });

    it('keeps the limits on in production when RATE_LIMITS is unset or true', () => {
      expect(loadConfig(production).rateLimits).toBe(true);
      expect(loadConfig({ ...production, RATE_LIMITS: 'true' }).rateLimits).toBe(true);
    });
  });

  it('keeps the development mailbox for demo mode without SMTP only', () => {
    expect(loadConfig({}).devMailbox).toBe(true);
    expect(loadConfig({ DEMO_MODE: 'false' }).devMailbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', DEMO_MODE: 'false' }).devMailbox).toBe(false);
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example:25' }).devMailbox).toBe(false);
  });

  it('reads TRUST_PROXY as a hop count or proxy addresses, off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1,fd00::/8' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8']);
  });

  it.each([
    [{ TRUST_PROXY: 'true' }, "TRUST_PROXY: TRUST_PROXY=true would trust any client's X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses"],
    [{ TRUST_PROXY: 'TRUE' }, "TRUST_PROXY: TRUST_PROXY=true would trust any client's X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses"],
    [{ TRUST_PROXY: 'loopback' }, 'TRUST_PROXY: TRUST_PROXY must be a hop count or comma-separated IP addresses or CIDR ranges (not "loopback")'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY: TRUST_PROXY must be a hop count or comma-separated IP addresses or CIDR ranges (not "10.0.0.0/33")'],
    [{ TRUST_PROXY: '99' }, 'TRUST_PROXY: TRUST_PROXY must be a hop count from 0 to 10, or proxy addresses'],
    [
      { TRUST_PROXY: '10.0.0.1,0.0.0.0/0' },
      "TRUST_PROXY: TRUST_PROXY range 0.0.0.0/0 is every address, as true would be: name the proxies' addresses or ranges",
    ],
    [{ TRUST_PROXY: '::/0' }, "TRUST_PROXY: TRUST_PROXY range ::/0 is every address, as true would be: name the proxies' addresses or ranges"],
    [{ WEB_CONCURRENCY: '0' }, 'WEB_CONCURRENCY: WEB_CONCURRENCY must be between 1 and 64'],
    [{ WEB_CONCURRENCY: 'many' }, 'WEB_CONCURRENCY: WEB_CONCURRENCY must be a number'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: METRICS_TOKEN must be at least 16 characters'],
    [{ ALLOW_HTTP: 'perhaps' }, 'ALLOW_HTTP: ALLOW_HTTP must be true or false (got "perhaps")'],
    [{ RUN_JOBS: 'sometimes' }, 'RUN_JOBS: RUN_JOBS must be true or false (got "sometimes")'],
    [{ ADMIN_TOTP_SECRET: 'JBSWY3DPEHPK3PX' }, `ADMIN_TOTP_SECRET: ${ADMIN_TOTP_SECRET_RULE}`],
    [{ ADMIN_TOTP_SECRET: 'JBSWY3DPEHPK3PXP0189' }, `ADMIN_TOTP_SECRET: ${ADMIN_TOTP_SECRET_RULE}`],
    [{ ADMIN_TOTP_SECRET: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' }, `ADMIN_TOTP_SECRET: ${ADMIN_TOTP_SECRET_RULE}`],
    [{ BANK_TIMEZONE: 'Mars/Olympus_Mons' }, 'BANK_TIMEZONE: BANK_TIMEZONE must be an IANA time zone such as UTC, Europe/London or America/New_York'],
    [{ TRANSFER_CODES_PER_HOUR: '0' }, 'TRANSFER_CODES_PER_HOUR: TRANSFER_CODES_PER_HOUR must be between 1 and 1000'],
    [{ TRANSFER_CODES_PER_HOUR: 'five' }, 'TRANSFER_CODES_PER_HOUR: TRANSFER_CODES_PER_HOUR must be a number'],
    [{ TRANSFER_CODE_FAILURES_PER_DAY: '2.5' }, 'TRANSFER_CODE_FAILURES_PER_DAY: TRANSFER_CODE_FAILURES_PER_DAY must be a whole number'],
    [{ MONEY_CALLS_PER_MINUTE: '-1' }, 'MONEY_CALLS_PER_MINUTE: MONEY_CALLS_PER_MINUTE must be between 1 and 1000000000'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([message]);
    }
  });

  it('reads ADMIN_TOTP_SECRET as base32 of 16 characters or more, as people copy it (spaces, lower case, padding)', () => {
    expect(loadConfig({}).adminTotpSecret).toBeUndefined();
    expect(loadConfig({ ADMIN_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' }).adminTotpSecret).toBe('JBSWY3DPEHPK3PXP');
    expect(loadConfig({ ADMIN_TOTP_SECRET: 'jbsw y3dp ehpk 3pxp jbsw y3dp ehpk 3pxp====' }).adminTotpSecret).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  });

  it('refuses the published demo secret as ADMIN_TOTP_SECRET in production', () => {
    const production = {
      NODE_ENV: 'production',
      DEMO_MODE: 'false',
      SMTP_URL: 'smtp://mail.example:587',
      PUBLIC_URL: 'https://bank.example',
      BANK_SIGNING_KEY_FILE: '/etc/ledgerline/signing-key.pem',
    };
    expect(() => loadConfig({ ...production, ADMIN_TOTP_SECRET: DEMO_ADMIN_TOTP_SECRET })).toThrow(
      'ADMIN_TOTP_SECRET: must not be the demo secret when NODE_ENV=production',
    );
    expect(loadConfig({ ...production, ADMIN_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' }).adminTotpSecret).toBe('JBSWY3DPEHPK3PXP');
    expect(loadConfig({ ADMIN_TOTP_SECRET: DEMO_ADMIN_TOTP_SECRET }).adminTotpSecret).toBe(DEMO_ADMIN_TOTP_SECRET);
  });

  it('reads the per-customer caps, with the named limits as defaults', () => {
    expect(loadConfig({}).limits).toEqual({ transferCodesPerHour: 5, transferCodeFailuresPerDay: 10, moneyCallsPerMinute: 30 });
    expect(loadConfig({ TRANSFER_CODES_PER_HOUR: '3', TRANSFER_CODE_FAILURES_PER_DAY: '7', MONEY_CALLS_PER_MINUTE: '1000000' }).limits).toEqual({
      transferCodesPerHour: 3,
      transferCodeFailuresPerDay: 7,
      moneyCallsPerMinute: 1_000_000,
    });
  });

  it('puts the anchor file in DATA_DIR unless ANCHOR_FILE says where, and mails anchors only with ANCHOR_EMAIL', () => {
    expect(loadConfig({ DATA_DIR: '/srv/bank' })).toMatchObject({ anchorFile: '/srv/bank/anchors.jsonl', anchorEmail: undefined });
    expect(loadConfig({ ANCHOR_FILE: '/mnt/anchors/bank.jsonl', ANCHOR_EMAIL: 'Audit@Bank.example' })).toMatchObject({
      anchorFile: '/mnt/anchors/bank.jsonl',
      anchorEmail: 'audit@bank.example',
    });
  });

  it('runs the background jobs in the app unless RUN_JOBS=false', () => {
    expect(loadConfig({}).runJobs).toBe(true);
    expect(loadConfig({ RUN_JOBS: 'false' }).runJobs).toBe(false);
    expect(loadConfig({ RUN_JOBS: 'true' }).runJobs).toBe(true);
  });

  it('reads LEDGER_BATCHES_IN_FLIGHT (1 by default, 1 to 8)', () => {
    expect(loadConfig({}).ledgerBatchesInFlight).toBe(1);
    expect(loadConfig({ LEDGER_BATCHES_IN_FLIGHT: '2' }).ledgerBatchesInFlight).toBe(2);
    expect(() => loadConfig({ LEDGER_BATCHES_IN_FLIGHT: '0' })).toThrow('LEDGER_BATCHES_IN_FLIGHT must be between 1 and 8');
    expect(() => loadConfig({ LEDGER_BATCHES_IN_FLIGHT: 'many' })).toThrow('LEDGER_BATCHES_IN_FLIGHT must be a number');
  });

  it('reads WEB_CONCURRENCY and METRICS_TOKEN', () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '4', METRICS_TOKEN: 'a-long-metrics-token' })).toMatchObject({
      webConcurrency: 4,
      metricsToken: 'a-long-metrics-token',
    });
  });
});
