import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { WEB_BUILD_DIR } from '../../src/server/plugins/web';
import { createTestApp, type TestContext } from '../support/app';

// Needs `npm run build` first (npm test builds before it runs the tests).
const built = fs.existsSync(`${WEB_BUILD_DIR}/index.html`);

describe.skipIf(!built)('serving the built web app', () => {
  let ctx: TestContext;
  let web: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    ctx = await createTestApp();
    web = await buildApp(ctx.context, { serveWeb: true });
  });
  afterAll(async () => {
    await web?.close();
    await ctx?.close();
  });

  it('sends prerendered public pages with a CSP that allows only their own inline scripts', async () => {
    const response = await web.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const csp = String(response.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((part) => part.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    // Every inline script of the page is covered by a hash.
    const inline = [...response.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
    expect(inline.length).toBeGreaterThan(0);
    const { createHash } = await import('node:crypto');
    for (const match of inline) {
      const hash = createHash('sha256')
        .update(match[1] ?? '', 'utf8')
        .digest('base64');
      expect(scriptSrc).toContain(`'sha256-${hash}'`);
    }
  });

  it("allows a prerendered page's inline style sheet by its hash only, and keeps the whole stylesheet off its first paint", async () => {
    const { createHash } = await import('node:crypto');
    const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    for (const url of ['/', '/contact', '/signin', '/verify-statement']) {
      const response = await web.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      const styleElem = csp.split(';').find((part) => part.trim().startsWith('style-src-elem')) ?? '';
      expect(styleElem, url).not.toContain('unsafe-inline');
      const inline = [...response.body.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)];
      expect(inline.length, url).toBe(1);
      expect(styleElem, url).toContain(sha256(inline[0]?.[1] ?? ''));
      // The page's own rules inline; the whole stylesheet linked but disabled until the app needs it.
      expect(response.body, url).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css" disabled="" data-deferred-css=""\/>/);
      expect(response.body, url).not.toMatch(/<link rel="stylesheet" href="[^"]+"\/>/);
      // React sets style attributes: those stay allowed.
      expect(csp, url).toContain("style-src-attr 'unsafe-inline'");
    }
    // The client app's shell for signed-in areas has no inline style sheet and keeps the plain policy.
    const shell = await web.inject({ method: 'GET', url: '/account/home' });
    expect(String(shell.headers['content-security-policy'])).not.toContain('style-src-elem');
    expect(shell.body).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css"\/>/);
  });

  it('serves the same page for /about and /about-us, and the demo notice', async () => {
    for (const url of ['/about-us', '/about', '/signin', '/login']) {
      const response = await web.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('Demo bank: no real money');
    }
  });

  it("shows the demo notice by this start's DEMO_MODE, whatever the build's (a demo build served with DEMO_MODE=false hides it)", async () => {
    const notice = /<aside class="demo-banner[^"]*" aria-label="Demo"( hidden="")?>Demo bank: no real money<\/aside>/;
    for (const url of ['/', '/admin/login', '/admin/users']) {
      const page = await web.inject({ method: 'GET', url });
      expect(page.body.match(notice)?.[1], url).toBeUndefined();
    }
    // The same build served by a bank started with DEMO_MODE=false: every page's notice is hidden,
    // the page otherwise unchanged (its CSP hashes still hold).
    const real = await buildApp({ ...ctx.context, config: { ...ctx.context.config, demoMode: false } }, { serveWeb: true });
    try {
      for (const url of ['/', '/admin/login', '/admin/users', '/no-such-page']) {
        const page = await real.inject({ method: 'GET', url });
        expect(page.body.match(notice)?.[1], url).toBe(' hidden=""');
        const original = await web.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(original.statusCode);
        expect(page.headers['content-security-policy'], url).toBe(original.headers['content-security-policy']);
        expect(page.body.replace(' hidden=""', ''), url).toBe(original.body);
      }
    } finally {
      await real.close();
    }
  });

  it('answers signed-in areas with the client app and unknown paths with 404', async () => {
    expect((await web.inject({ method: 'GET', url: '/account/home' })).statusCode).toBe(200);
    expect((await web.inject({ method: 'GET', url: '/admin/users/123' })).statusCode).toBe(200);
    expect((await web.inject({ method: 'GET', url: '/account/home/' })).statusCode).toBe(200);
    for (const url of ['/no-such-page', '/account/no-such-page', '/admin/users/1/2', '/accounting']) {
      const unknown = await web.inject({ method: 'GET', url });
      expect(unknown.statusCode, url).toBe(404);
      expect(unknown.headers['content-type'], url).toContain('text/html');
    }
    // A sign-in form sent before its scripts ran: back to the page, the fields dropped, nothing in the address.
    const early = await web.inject({
      method: 'POST',
      url: '/signin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=Secret-123',
    });
    expect(early.statusCode).toBe(303);
    expect(early.headers.location).toBe('/signin');
    expect((await web.inject({ method: 'POST', url: '/no-such-page' })).statusCode).toBe(404);
    const api = await web.inject({ method: 'GET', url: '/api/no-such-call' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ message: 'Not found' });
  });

  it('caches hashed assets for a year and HTML never without revalidation', async () => {
    const home = await web.inject({ method: 'GET', url: '/' });
    expect(home.headers['cache-control']).toBe('no-cache');
    const asset = home.body.match(/\/assets\/[^"'\s]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await web.inject({ method: 'GET', url: asset! });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });
});
