/**
 * DATABASE_URL, including libpq's multi-host form:
 *
 *   postgres://user:password@host1:5432,host2:5432/ledgerline?target_session_attrs=read-write
 *
 * node-postgres connects to one host; db/database.ts walks this list (ADR 009). Each host becomes
 * a one-host URL with the same credentials, database and parameters. `target_session_attrs` is
 * read here and left out of those URLs: `read-write` keeps a server whose transactions are not
 * read-only, `primary` one that is not in recovery, `any` (the default) the first that answers.
 */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

export interface DatabaseTarget {
  /** `host:port` of each server, in the order given (for logs: no credentials). */
  hosts: string[];
  /** One connection string per server, in the same order. */
  urls: string[];
  targetSessionAttrs: TargetSessionAttrs;
}

const SUPPORTED_ATTRS: readonly string[] = ['any', 'read-write', 'primary'];
const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?$/;
const HOST_SPEC = /^(\[[0-9a-fA-F:.]+\]|[^[\]:,]*)(?::(\d{1,5}))?$/;

export const DATABASE_URL_MESSAGE = 'DATABASE_URL must be a URL starting with postgres:// or postgresql://';

export function parseDatabaseUrl(value: string): DatabaseTarget {
  const parts = URL_PARTS.exec(value.trim());
  if (!parts) throw new Error(DATABASE_URL_MESSAGE);
  const [, scheme = '', userinfo, hostList = '', path = '', query = ''] = parts;
  const parameters = new URLSearchParams(query);
  const attrs = parameters.get('target_session_attrs') ?? 'any';
  if (!SUPPORTED_ATTRS.includes(attrs)) throw new Error(`DATABASE_URL: target_session_attrs must be one of ${SUPPORTED_ATTRS.join(', ')} (got "${attrs}")`);
  parameters.delete('target_session_attrs');
  const rest = `${path}${parameters.size > 0 ? `?${parameters.toString()}` : ''}`;
  const specs = hostList.split(',');
  if (specs.length > 1 && specs.some((spec) => !HOST_SPEC.exec(spec)?.[1])) throw new Error(`${DATABASE_URL_MESSAGE}; every host of a list needs a name`);
  const urls = specs.map((spec) => {
    if (!HOST_SPEC.test(spec)) throw new Error(DATABASE_URL_MESSAGE);
    const url = `${scheme}${userinfo === undefined ? '' : `${userinfo}@`}${spec}${rest}`;
    new URL(url); // throws on anything else malformed
    return url;
  });
  return { hosts: specs, urls, targetSessionAttrs: attrs as TargetSessionAttrs };
}

/** For config validation: true when parseDatabaseUrl accepts the value. */
export function isDatabaseUrl(value: string): boolean {
  try {
    parseDatabaseUrl(value);
    return true;
  } catch {
    return false;
  }
}
