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
export async function registerWebApp(app: FastifyInstance, settings: { demoMode: boolean }, buildDir = WEB_BUILD_DIR): Promise<void> {
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

  // The demo notice follows this start's DEMO_MODE, not the build's: a build made in demo mode and
  // served by a bank started with DEMO_MODE=false (or the reverse) shows what the running bank is.
  // Only then is each page's notice element (src/web/components/layout/demo-banner.tsx, always in
  // the HTML) switched with its `hidden` attribute as the page is sent; no script or style sheet
  // changes, so the CSP hashes hold, and React leaves the attribute as it found it when hydrating.
  const noticeShown = demoNoticeOf(buildDir);
  const rewriteNotice = noticeShown !== undefined && noticeShown !== settings.demoMode;
  const rewritten = new Map<string, string>();
  const htmlOf = (file: string) => {
    let html = rewritten.get(file);
    if (html === undefined) {
      html = withDemoNotice(fs.readFileSync(path.join(buildDir, file), 'utf8'), settings.demoMode);
      rewritten.set(file, html);
    }
    return html;
  };

  const sendHtml = (reply: FastifyReply, file: string, status = 200) => {
    reply.header('Content-Security-Policy', policyOf(file));
    reply.header('Cache-Control', 'no-cache');
    if (rewriteNotice) return reply.status(status).type('text/html; charset=utf-8').send(htmlOf(file));
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

/** Whether the build at `buildDir` shows the demo notice (its build/settings.json), if it says. */
function demoNoticeOf(buildDir: string): boolean | undefined {
  const file = path.join(buildDir, '..', 'settings.json');
  if (!fs.existsSync(file)) return undefined;
  const built = JSON.parse(fs.readFileSync(file, 'utf8')) as { demoMode?: unknown };
  return typeof built.demoMode === 'boolean' ? built.demoMode : undefined;
}

const NOTICE_TAG = /<aside class="demo-banner([^"]*)" aria-label="Demo"( hidden="")?>/;

/** A page's HTML with its demo notice shown or hidden. */
export function withDemoNotice(html: string, shown: boolean): string {
  return html.replace(NOTICE_TAG, (_tag, classes: string) => `<aside class="demo-banner${classes}" aria-label="Demo"${shown ? '' : ' hidden=""'}>`);
}
