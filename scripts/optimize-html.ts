// After `react-router build`, before scripts/csp-hashes.ts: takes the stylesheet and the scripts
// off the first paint of every prerendered page (docs/decisions/018-public-page-speed.md).
//
// - CSS: the rules the page can use (the classes in its HTML and in its own scripts) go inline in
//   a <style>; the whole stylesheet stays linked but `disabled` (neither downloaded nor parsed
//   during the page load). The app fetches it when idle and switches it on at the first
//   client-side navigation (src/web/lib/deferred-css.ts), when another page's classes may be needed.
// - JavaScript: the framework's modulepreload links and its bootstrap module start downloading
//   while the HTML is parsed, so a phone's first paint waited for them. The bootstrap becomes an
//   inert <script type="text/x-deferred-module"> (same text, same hash); a small loader runs it,
//   with the same modulepreload links, once the page has painted (LOADER below).
//
// React hydrates these pages unchanged: it matches <head> elements by tag and href (other
// attributes, `disabled` here, are neither compared nor patched in production), matches an inline
// <script> whatever its type, skips the extra <style> element and leaves alone the modulepreload
// links the loader adds. Each step checks the shape it expects and fails the build
// otherwise, so a React Router upgrade that changes its HTML cannot slip through silently.
import fs from 'node:fs';
import path from 'node:path';
import postcss, { type AtRule, type Rule } from 'postcss';
import { prerenderedPaths } from '../src/shared/routes';
import { htmlFileOf, measurePageScripts } from './page-scripts';

const CLIENT_DIR = path.resolve('build/client');
export const DEFERRED_MODULE_ID = 'deferred-modules';

/**
 * Runs the framework's bootstrap module once the page has painted: the modulepreload links (the
 * whole module graph downloads in parallel), then the modules one at a time, each in a task of its
 * own (a MessageChannel message between them, not a timer), and last the bootstrap itself, whose
 * imports are then all evaluated, so it only names the route modules and starts hydration (its
 * `import("…entry.client…")`, never imported ahead). Evaluating the whole graph as the bootstrap's
 * imports was one task of about 40 ms on a fast machine: 160 ms on Lighthouse's 4x slowed phone,
 * most of the page's total blocking time. A module that fails to load starts the bootstrap at
 * once (it loads what is missing, or fails as it would have). "Painted" is the browser's own
 * paint timing entry (PerformanceObserver), not a timer: a page whose timers are paused (a test's
 * fake clock, a throttled tab) still starts. A hidden tab (nothing to paint) starts at once or
 * when it is hidden later; a browser without paint timing at `load`. The same text on every page,
 * so one CSP hash.
 *
 * Until React has taken the page over (root.tsx's data-hydrated mark), a click on a link is kept
 * from React and followed as a plain link: React Router's Link, hydrated in the middle of the
 * click, prevents the browser's navigation but cannot navigate itself yet, and the click was lost.
 * A press of a `type="button"` button (a header menu, the slider's arrows: nothing happens without
 * React) is held instead and pressed again once the mark is set, so a keyboard user's Enter (or a
 * tap) made while the modules are still being evaluated opens the menu a moment later instead of
 * being lost; the last such press is the one replayed. A form sent in that time (Enter in a
 * field, a submit button) is not posted natively (the prerendered page would come back empty, the
 * typed password lost): it is held and sent again with `requestSubmit` once React is there, so the
 * form's own handler checks and sends it. Links keep the browser's own behaviour.
 */
export const LOADER = `(function(){var d=document,w=window,s=d.getElementById("${DEFERRED_MODULE_ID}"),P=w.PerformanceObserver,started=false;function boot(){var m=d.createElement("script");m.type="module";m.textContent=s.textContent;d.body.appendChild(m)}function start(){if(started)return;started=true;var last=(/import\\("([^"]+)"\\)/.exec(s.textContent)||[])[1],all=(s.getAttribute("data-preload")||"").split(" ").filter(function(href){return href}),list=all.filter(function(href){return href!==last}),i=0,c=new MessageChannel();all.forEach(function(href){var l=d.createElement("link");l.rel="modulepreload";l.href=href;d.head.appendChild(l)});c.port1.onmessage=next;function next(){if(i>=list.length)return boot();import(list[i++]).then(function(){c.port2.postMessage(0)},boot)}next()}var r=d.documentElement,held=null,sent=null;w.addEventListener("submit",function(e){if(r.hasAttribute("data-hydrated"))return;e.preventDefault();e.stopPropagation();sent=[e.target,e.submitter]},true);w.addEventListener("click",function(e){var t=e.target,b;if(r.hasAttribute("data-hydrated")||!t||!t.closest)return;if(t.closest("a[href]"))return e.stopPropagation();b=t.closest('button[type="button"]');if(b){e.stopPropagation();e.preventDefault();held=b}},true);new MutationObserver(function(list,observer){if(!r.hasAttribute("data-hydrated"))return;observer.disconnect();var b=held,f=sent;held=sent=null;if(b&&b.isConnected)b.click();if(f&&f[0].isConnected)f[0].requestSubmit(f[1]&&f[1].isConnected?f[1]:null)}).observe(r,{attributes:true,attributeFilter:["data-hydrated"]});if(d.hidden)return start();d.addEventListener("visibilitychange",function(){if(d.hidden)start()});if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)new P(function(list,observer){observer.disconnect();start()}).observe({type:"paint",buffered:true});else w.addEventListener("load",start)})()`;

/** The class names a selector requires, outside functional pseudo-classes (`:not(.x)` does not need .x). */
export function requiredClasses(selector: string): string[] {
  const classes: string[] = [];
  let depth = 0;
  let index = 0;
  const readEscape = (): string => {
    // At a backslash: a hex escape (up to 6 digits and one optional space) or one escaped character.
    const hex = /^[0-9a-fA-F]{1,6} ?/.exec(selector.slice(index + 1));
    if (hex) {
      index += 1 + hex[0].length;
      return String.fromCodePoint(parseInt(hex[0].trim(), 16));
    }
    index += 2;
    return selector[index - 1] ?? '';
  };
  while (index < selector.length) {
    const char = selector[index] as string;
    if (char === '\\') {
      readEscape();
    } else if (char === '(') {
      depth += 1;
      index += 1;
    } else if (char === ')') {
      depth -= 1;
      index += 1;
    } else if (char === '.' && depth === 0) {
      index += 1;
      let name = '';
      while (index < selector.length) {
        const next = selector[index] as string;
        if (next === '\\') name += readEscape();
        else if (/[A-Za-z0-9_-]/.test(next) || next.charCodeAt(0) > 127) {
          name += next;
          index += 1;
        } else break;
      }
      if (name) classes.push(name);
    } else {
      index += 1;
    }
  }
  return classes;
}

/** Every token that may be a class name: the class attributes of the HTML and the strings of its scripts. */
export function candidateClasses(html: string, scripts: string[]): Set<string> {
  const names = new Set<string>();
  for (const match of html.matchAll(/\bclass="([^"]*)"/g)) for (const name of (match[1] ?? '').split(/\s+/)) if (name) names.add(name);
  // Over-inclusion costs a few bytes; a missed class would leave an element unstyled until the
  // whole stylesheet arrives. Class strings sit between quotes and spaces in the minified code.
  for (const script of scripts) for (const token of script.split(/[\s"'`]+/)) if (token) names.add(token);
  return names;
}

/** The stylesheet reduced to the rules whose selectors can match with these classes (keyframes, @property and the like kept). */
export function pruneCss(css: string, classes: Set<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule: Rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as AtRule).name)) return;
    const kept = rule.selectors.filter((selector) => requiredClasses(selector).every((name) => classes.has(name)));
    if (kept.length === 0) rule.remove();
    else if (kept.length !== rule.selectors.length) rule.selectors = kept;
  });
  // Blocks left empty (@media, @supports, @layer x { }) go; statements such as `@layer a, b;` have no block and stay.
  let removed = true;
  while (removed) {
    removed = false;
    root.walkAtRules((atRule: AtRule) => {
      if (atRule.nodes !== undefined && atRule.nodes.length === 0) {
        atRule.remove();
        removed = true;
      }
    });
  }
  return root.toString();
}

function only<T>(items: T[], what: string, file: string): T {
  if (items.length !== 1) throw new Error(`${file}: expected exactly one ${what}, found ${items.length} (did React Router change its HTML?)`);
  return items[0] as T;
}

async function optimizePage(page: string): Promise<{ file: string; cssBytes: number; pageCssBytes: number; preloads: number }> {
  const file = htmlFileOf(page);
  let html = fs.readFileSync(path.join(CLIENT_DIR, file), 'utf8');
  if (html.includes(DEFERRED_MODULE_ID)) throw new Error(`${file} is already optimized: build again from scratch`);

  // The page's own scripts name the classes it can add after hydration (menus, errors, slides).
  const scripts = await measurePageScripts(CLIENT_DIR, page);
  const scriptTexts = [...scripts.initial.keys()].map((asset) => fs.readFileSync(path.join(CLIENT_DIR, asset), 'utf8'));

  const link = only([...html.matchAll(/<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"\/>/g)], 'stylesheet link', file);
  const href = link[1] as string;
  const css = fs.readFileSync(path.join(CLIENT_DIR, href), 'utf8');
  const pageCss = pruneCss(css, candidateClasses(html, scriptTexts));
  if (/<\/style/i.test(pageCss)) throw new Error(`${href} contains "</style": it cannot be inlined`);
  html = html.replace(link[0], `<style data-page-css="">${pageCss}</style><link rel="stylesheet" href="${href}" disabled="" data-deferred-css=""/>`);

  const preloads = [...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"\/>/g)];
  if (preloads.length === 0) throw new Error(`${file}: no modulepreload links (did React Router change its HTML?)`);
  for (const preload of preloads) html = html.replace(preload[0], '');
  const boot = only([...html.matchAll(/<script type="module" async="">/g)], 'bootstrap module script', file);
  html = html.replace(
    boot[0],
    `<script type="text/x-deferred-module" id="${DEFERRED_MODULE_ID}" data-preload="${preloads.map((preload) => preload[1]).join(' ')}">`,
  );
  const bodyEnd = only([...html.matchAll(/<\/body>/g)], '</body>', file);
  html = html.replace(bodyEnd[0], `<script>${LOADER}</script></body>`);

  fs.writeFileSync(path.join(CLIENT_DIR, file), html);
  return { file, cssBytes: Buffer.byteLength(css), pageCssBytes: Buffer.byteLength(pageCss), preloads: preloads.length };
}

async function main(): Promise<void> {
  const results = [];
  for (const page of prerenderedPaths) results.push(await optimizePage(page));
  const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  const sizes = results.map((result) => result.pageCssBytes);
  console.log(
    `Optimized ${results.length} prerendered pages: CSS inlined (${kB(Math.min(...sizes))} to ${kB(Math.max(...sizes))} of ${kB(results[0]?.cssBytes ?? 0)}), ` +
      `the whole stylesheet deferred, scripts started after the first paint.`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  await main();
}
