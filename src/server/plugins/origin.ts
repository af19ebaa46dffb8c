import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { forbidden } from '../lib/errors';
import { SESSION_COOKIE } from './auth';

export const FOREIGN_ORIGIN_MESSAGE = 'This request did not come from the bank’s own pages, so it was refused. Reload the page and try again.';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origin (scheme, host, port) of a URL, or null for anything that is not one ("null" included). */
function originOfUrl(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Where a browser says a request comes from: `Origin`, or the origin of `Referer` when a browser
 * sends no Origin (OWASP's "verify the origin with standard headers"). Null when neither says.
 */
export function requestOrigin(request: FastifyRequest): string | null {
  return originOfUrl(request.headers.origin) ?? originOfUrl(request.headers.referer);
}

/**
 * Refuses a state-changing /api request that a browser sends with the session cookie from another
 * site (CSRF), a defence besides SameSite=Strict, which older browsers and same-site subdomains
 * do not honour. Only cookie-borne sessions are checked: a Bearer token is never sent by a browser
 * on its own, so an API client's requests are not affected. The allowed origin is PUBLIC_URL's;
 * outside production also the server's own (a developer or a test reaching it by another name).
 * Runs before the session is looked up, so a refused request costs no database work.
 */
export function registerOriginCheck(api: FastifyInstance, config: Pick<Config, 'publicUrl' | 'isProduction'>): void {
  const publicOrigin = new URL(config.publicUrl).origin;
  api.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    if (request.headers.authorization?.startsWith('Bearer ')) return;
    if (!request.cookies?.[SESSION_COOKIE]) return;
    const origin = requestOrigin(request);
    if (origin === publicOrigin) return;
    if (!config.isProduction && origin !== null && origin === originOfUrl(`${request.protocol}://${request.host}`)) return;
    throw forbidden(FOREIGN_ORIGIN_MESSAGE);
  });
}
