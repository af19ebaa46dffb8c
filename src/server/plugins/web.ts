import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isClientRenderedPath } from '../../shared/routes';
import { htmlContentSecurityPolicy } from './security';

/** Where `npm run build` writes the web app. */
export const WEB_BUILD_DIR = path.resolve('build/client');
export const CSP_HASHES_FILE = path.resolve('build/csp-hashes.json');
const FALLBACK = '__spa-fallback.html';

/** One HTML file's entry in build/csp-hashes.json. */
interface InlineHashes {
  scripts: string[];
  styles: string[];
}

/**
 * Serves the built web app: prerendered public pages, the SPA fallback for signed-in areas,
 * and immutable assets. Each HTML file is sent with a CSP listing its own inline scripts' and
 * style sheets' hashes (build/csp-hashes.json, written by scripts/csp-hashes.ts).
 */
export async function registerWebApp(app: FastifyInstance, buildDir = WEB_BUILD_DIR): Promise<void> {
  if (!fs.existsSync(buildDir)) {
    app.log.warn(`No web build at ${buildDir}: run "npm run build". Only the API is served.`);
    app.setNotFoundHandler((request, reply) => reply.status(404).send({ message: 'Not found' }));
    return;
  }
  const hashes: Record<string, InlineHashes> = fs.existsSync(CSP_HASHES_FILE)
    ? (JSON.parse(fs.readFileSync(CSP_HASHES_FILE, 'utf8')) as Record<string, InlineHashes>)
    : {};
  const policyOf = (file: string) => htmlContentSecurityPolicy(hashes[file]?.scripts ?? [], hashes[file]?.styles ?? []);
  const pages = new Map<string, string>();
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'index.html') {
        const relative = path.relative(buildDir, directory).split(path.sep).join('/');
        pages.set(relative === '' ? '/' : `/${relative}`, path.relative(buildDir, full).split(path.sep).join('/'));
      }
    }
  };
  walk(buildDir);
  const hasFallback = fs.existsSync(path.join(buildDir, FALLBACK));

  const sendHtml = (reply: FastifyReply, file: string, status = 200) => {
    reply.header('Content-Security-Policy', policyOf(file));
    reply.header('Cache-Control', 'no-cache');
    return reply.status(status).type('text/html; charset=utf-8').sendFile(file);
  };

  await app.register(fastifyStatic, {
    root: buildDir,
    wildcard: false,
    index: false,
    serve: true,
    // `npm run build` writes .br and .gz copies (scripts/precompress.ts); sent when accepted.
    preCompressed: true,
    setHeaders(response, filePath) {
      const reply = response as unknown as FastifyReply;
      const relative = path
        .relative(buildDir, filePath)
        .split(path.sep)
        .join('/')
        .replace(/\.(br|gz)$/, '');
      if (relative.startsWith('assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      if (relative.endsWith('.html')) {
        reply.header('Content-Security-Policy', policyOf(relative));
        reply.header('Cache-Control', 'no-cache');
      }
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname.startsWith('/api/') || url.pathname === '/api') {
      return reply.status(404).send({ message: 'Not found', code: 'not_found' });
    }
    const pathname = url.pathname.replace(/\/+$/, '') || '/';
    const page = pages.get(pathname);
    // A form submitted before its page's scripts ran (its fields are dropped, never logged): back
    // to the same page, whose scripts then take over.
    if (request.method === 'POST' && page) return reply.redirect(pathname, 303);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ message: 'Not found', code: 'not_found' });
    }
    if (page) return sendHtml(reply, page);
    if (pathname.startsWith('/assets/')) return reply.status(404).type('text/plain').send('Not found');
    // The signed-in areas' routes are client-rendered from the fallback page; any other path is
    // unknown: the same page shows 'Not Found', with a 404 status for crawlers and link checkers.
    if (hasFallback) return sendHtml(reply, FALLBACK, isClientRenderedPath(pathname) ? 200 : 404);
    return reply.status(404).type('text/plain').send('Not found');
  });
}
