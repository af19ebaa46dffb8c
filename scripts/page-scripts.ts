// What JavaScript each prerendered page loads, read from the build output (no browser): the
// scripts its HTML starts (module scripts, modulepreload links, the framework's bootstrap module
// and what that imports) and everything those import statically is "initial"; what they only
// import dynamically (`import("./x.js")`, code that waits for a keystroke or a click) is "lazy".
// Sizes are Brotli bytes at the quality scripts/precompress.ts writes: what a browser downloads.
// Used by the build's script budget (scripts/script-budget.ts) and by `npm run bench:web`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { init, parse } from 'es-module-lexer';

export interface PageScripts {
  /** The page's path, e.g. "/contact". */
  page: string;
  /** Asset path ("/assets/x.js") -> Brotli bytes, for the scripts loaded without any interaction. */
  initial: Map<string, number>;
  /** The same for scripts only reachable through a dynamic import (loaded on demand). */
  lazy: Map<string, number>;
  initialBytes: number;
  lazyBytes: number;
}

/** The HTML file of a prerendered path, relative to the client build directory. */
export const htmlFileOf = (page: string): string => (page === '/' ? 'index.html' : `${page.slice(1)}/index.html`);

const brotliCache = new Map<string, number>();
function brotliBytes(file: string): number {
  const cached = brotliCache.get(file);
  if (cached !== undefined) return cached;
  const bytes = fs.readFileSync(file);
  const size = zlib.brotliCompressSync(bytes, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }).length;
  brotliCache.set(file, size);
  return size;
}

interface ModuleImports {
  static: string[];
  dynamic: string[];
}

/** A module's imports as asset paths ("/assets/x.js"); specifiers that are not same-origin .js files are left out. */
function importsOf(source: string, fromUrl: string): ModuleImports {
  const [imports] = parse(source);
  const result: ModuleImports = { static: [], dynamic: [] };
  for (const entry of imports) {
    // `n` is the specifier when it is a string literal; a computed one (the router's own loader) has none.
    if (!entry.n || !/\.m?js$/.test(entry.n)) continue;
    const url = new URL(entry.n, `http://build${fromUrl}`);
    if (url.host !== 'build') continue;
    (entry.d === -1 ? result.static : result.dynamic).push(url.pathname);
  }
  return result;
}

/** The scripts a page's HTML starts by itself: modulepreload links, script src, and the imports of its inline modules. */
function htmlScriptRoots(html: string, pageUrl: string): string[] {
  const roots: string[] = [];
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(match[0])?.[1];
    if (href) roots.push(new URL(href, `http://build${pageUrl}`).pathname);
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attributes = match[1] ?? '';
    const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
    if (src) roots.push(new URL(src, `http://build${pageUrl}`).pathname);
    // Inline modules (and the optimized pages' deferred module, which runs as a module later): every
    // import they make, static or dynamic, happens without any interaction.
    else if (/\btype="(module|text\/x-deferred-module)"/.test(attributes)) {
      const imports = importsOf(match[2] ?? '', pageUrl);
      roots.push(...imports.static, ...imports.dynamic);
      // The deferred module's loader adds these modulepreload links (scripts/optimize-html.ts).
      for (const href of (/\bdata-preload="([^"]*)"/.exec(attributes)?.[1] ?? '').split(' ').filter(Boolean)) {
        roots.push(new URL(href, `http://build${pageUrl}`).pathname);
      }
    }
  }
  return roots;
}

/** Measures one prerendered page of a client build directory. */
export async function measurePageScripts(clientDir: string, page: string): Promise<PageScripts> {
  await init;
  const htmlFile = path.join(clientDir, htmlFileOf(page));
  const html = fs.readFileSync(htmlFile, 'utf8');
  const cache = new Map<string, ModuleImports>();
  const read = (asset: string): ModuleImports => {
    let imports = cache.get(asset);
    if (!imports) {
      const file = path.join(clientDir, asset);
      if (!fs.existsSync(file)) throw new Error(`${page} loads ${asset}, which the build does not have`);
      imports = importsOf(fs.readFileSync(file, 'utf8'), asset);
      cache.set(asset, imports);
    }
    return imports;
  };
  /** Every module reachable from the roots through static imports; dynamic targets are collected aside. */
  const closure = (roots: string[], into: Set<string>, dynamicTargets: Set<string>) => {
    const stack = [...roots];
    while (stack.length > 0) {
      const asset = stack.pop() as string;
      if (into.has(asset)) continue;
      into.add(asset);
      const imports = read(asset);
      stack.push(...imports.static);
      for (const target of imports.dynamic) dynamicTargets.add(target);
    }
  };
  const initial = new Set<string>();
  const pending = new Set<string>();
  closure(htmlScriptRoots(html, `/${htmlFileOf(page)}`), initial, pending);
  const lazy = new Set<string>();
  while (pending.size > 0) {
    const roots = [...pending].filter((asset) => !initial.has(asset) && !lazy.has(asset));
    pending.clear();
    const reached = new Set<string>();
    closure(roots, reached, pending);
    for (const asset of reached) if (!initial.has(asset)) lazy.add(asset);
  }
  const sized = (assets: Set<string>) => new Map([...assets].sort().map((asset) => [asset, brotliBytes(path.join(clientDir, asset))] as const));
  const initialSizes = sized(initial);
  const lazySizes = sized(lazy);
  const sum = (sizes: Map<string, number>) => [...sizes.values()].reduce((total, size) => total + size, 0);
  return { page, initial: initialSizes, lazy: lazySizes, initialBytes: sum(initialSizes), lazyBytes: sum(lazySizes) };
}
