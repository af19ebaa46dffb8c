import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurePageScripts } from '../../scripts/page-scripts';
import { FORM_PAGE, MARKETING_PAGE, SIGN_UP_PAGE, budgetOf } from '../../scripts/script-budget';

// A client build in miniature: what a page starts by itself, and what only a dynamic import reaches.
const FILES: Record<string, string> = {
  'assets/entry.js': 'import "./shared.js"; export const start = 1;',
  'assets/shared.js': 'export const shared = "' + 'x'.repeat(400) + '";',
  'assets/route.js': 'import { shared } from "./shared.js"; const later = () => import("./contract.js"); export default later;',
  'assets/contract.js': 'import { rules } from "./rules.js"; export const contract = rules;',
  'assets/rules.js': 'export const rules = "' + 'y'.repeat(2000) + '";',
  'assets/unused.js': 'export const unused = 1;',
  'contact/index.html':
    '<html><head><link rel="modulepreload" href="/assets/entry.js"/></head><body>' +
    '<script>window.__context = {};</script>' +
    '<script type="module" async="">import "/assets/entry.js"; import("/assets/route.js");</script></body></html>',
  // The same page after scripts/optimize-html.ts: the bootstrap is inert and its preloads are data.
  'deferred/index.html':
    '<html><head></head><body><script type="text/x-deferred-module" id="deferred-modules" data-preload="/assets/entry.js">' +
    'import("/assets/route.js");</script><script>(function(){})()</script></body></html>',
  'broken/index.html': '<html><body><script type="module">import "/assets/missing.js";</script></body></html>',
};

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-scripts-'));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('measurePageScripts', () => {
  it('counts what the page starts and its static imports as initial, what only a dynamic import reaches as on demand', async () => {
    const scripts = await measurePageScripts(dir, '/contact');
    expect([...scripts.initial.keys()]).toEqual(['/assets/entry.js', '/assets/route.js', '/assets/shared.js']);
    expect([...scripts.lazy.keys()]).toEqual(['/assets/contract.js', '/assets/rules.js']);
    // Brotli sizes: a repeated string compresses far below its length, and the sums add up.
    const rules = scripts.lazy.get('/assets/rules.js') as number;
    expect(rules).toBeGreaterThan(0);
    expect(rules).toBeLessThan(2000);
    expect(scripts.initialBytes).toBe([...scripts.initial.values()].reduce((a, b) => a + b, 0));
    expect(scripts.lazyBytes).toBe(rules + (scripts.lazy.get('/assets/contract.js') as number));
  });

  it('reads an optimized page: the deferred module and its preload list are initial', async () => {
    const scripts = await measurePageScripts(dir, '/deferred');
    expect([...scripts.initial.keys()]).toEqual(['/assets/entry.js', '/assets/route.js', '/assets/shared.js']);
    expect([...scripts.lazy.keys()]).toEqual(['/assets/contract.js', '/assets/rules.js']);
  });

  it('fails on a script the build does not have', async () => {
    await expect(measurePageScripts(dir, '/broken')).rejects.toThrow('/broken loads /assets/missing.js, which the build does not have');
  });
});

describe('budgetOf', () => {
  it('gives every public page its kind of budget and refuses a page that is not public', () => {
    expect(budgetOf('/')).toBe(MARKETING_PAGE);
    expect(budgetOf('/contact')).toBe(FORM_PAGE);
    expect(budgetOf('/verify-statement')).toBe(FORM_PAGE);
    expect(budgetOf('/signup')).toBe(SIGN_UP_PAGE);
    expect(() => budgetOf('/account')).toThrow('/account is not a public page of the route manifest');
  });
});
