import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { isDatabaseUrl, parseDatabaseUrl } from '../../src/server/db/connection-string';
import { isDatabaseUnavailable } from '../../src/server/db/errors';

describe('DATABASE_URL', () => {
  it('takes one host as before, unchanged', () => {
    expect(parseDatabaseUrl('postgres://u:p@db:5432/bank')).toEqual({ hosts: ['db:5432'], urls: ['postgres://u:p@db:5432/bank'], targetSessionAttrs: 'any' });
    expect(parseDatabaseUrl('postgresql://db/bank?sslmode=require').urls).toEqual(['postgresql://db/bank?sslmode=require']);
  });

  it("takes libpq's host list: one URL per host, with the same credentials, database and parameters", () => {
    const target = parseDatabaseUrl('postgres://u:p%40ss@10.0.0.1:5432,10.0.0.2:5433,[::1]:5434/bank?target_session_attrs=read-write&sslmode=require');
    expect(target.targetSessionAttrs).toBe('read-write');
    expect(target.hosts).toEqual(['10.0.0.1:5432', '10.0.0.2:5433', '[::1]:5434']);
    expect(target.urls).toEqual([
      'postgres://u:p%40ss@10.0.0.1:5432/bank?sslmode=require',
      'postgres://u:p%40ss@10.0.0.2:5433/bank?sslmode=require',
      'postgres://u:p%40ss@[::1]:5434/bank?sslmode=require',
    ]);
    expect(parseDatabaseUrl('postgres://a,b/bank?target_session_attrs=primary').targetSessionAttrs).toBe('primary');
  });

  it('refuses what it cannot honour', () => {
    for (const value of [
      'mysql://x',
      'postgres://a,,b/bank',
      'postgres://a:5432,:5433/bank',
      'postgres://a,b/bank?target_session_attrs=standby',
      'postgres://a:99999999/bank',
      'not a url',
    ]) {
      expect(isDatabaseUrl(value), value).toBe(false);
    }
  });

  it('is accepted by the configuration in both forms', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@h1:5432,h2:5432/bank?target_session_attrs=read-write' }).databaseUrl).toContain('h1:5432,h2:5432');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://h1,h2/bank?target_session_attrs=standby' })).toThrow(
      'DATABASE_URL must be a URL starting with postgres:// or postgresql://',
    );
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('recognises a database that is away', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('ETIMEDOUT'),
      Object.assign(withCode('ENOENT'), { syscall: 'connect', address: '/tmp/.s.PGSQL.5432' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      withCode('08006'),
      withCode('08001'),
      withCode('57P01'),
      withCode('57P02'),
      withCode('57P03'),
      withCode('25006'),
      Object.assign(new AggregateError([withCode('ECONNREFUSED')]), {}),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it('leaves real errors alone', () => {
    for (const error of [
      withCode('23505'),
      withCode('40001'),
      Object.assign(withCode('ENOENT'), { syscall: 'open' }),
      withCode('57014'),
      new Error('Assertion failed'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});
