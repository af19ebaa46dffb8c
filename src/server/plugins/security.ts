import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Content-Security-Policy for an HTML page whose inline scripts (and inline style sheets) have the
 * given hashes. A page with inline style sheets (the prerendered pages' critical CSS) allows
 * <style> elements by hash only (style-src-elem, the toast library's sheet included); style
 * attributes, which React sets, stay allowed (style-src-attr), and style-src remains the fallback
 * of browsers that predate those two directives. Scripts are strict everywhere.
 */
export function htmlContentSecurityPolicy(scriptHashes: string[], styleHashes: string[] = []): string {
  const scripts = ["'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' ');
  const styles = styleHashes.length > 0 ? [`style-src-elem 'self' ${styleHashes.map((hash) => `'${hash}'`).join(' ')}`, "style-src-attr 'unsafe-inline'"] : [];
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    ...styles,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const https = config.publicUrl.startsWith('https://');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
