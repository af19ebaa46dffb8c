// After `react-router build` and scripts/optimize-html.ts: hash every inline <script> and <style>
// of every HTML file (sha256) into build/csp-hashes.json, so the server can send a
// Content-Security-Policy without 'unsafe-inline' for either (style attributes aside).
// Also records the build-time settings so the server can warn about a stale build.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildTimeSettings } from '../src/shared/build-settings';

const root = path.resolve('build/client');
export interface InlineHashes {
  scripts: string[];
  /** Empty when the page has no inline <style>: it then keeps the plain style-src policy. */
  styles: string[];
}
const hashes: Record<string, InlineHashes> = {};
const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

/**
 * The style sheets that libraries insert as <style> elements at run time: sonner's, when a
 * sign-in on a prerendered page moves on to the account area (same document, same policy).
 * Captured by importing the library with a stand-in document, and checked against the build.
 */
async function libraryStyles(): Promise<string[]> {
  const inserted: string[] = [];
  const standIn = {
    head: { appendChild: () => undefined },
    getElementsByTagName: () => [],
    createElement: () => ({ appendChild: (node: { text: string }) => inserted.push(node.text), set type(_value: string) {} }),
    createTextNode: (text: string) => ({ text }),
  };
  const global = globalThis as { document?: unknown };
  global.document = standIn;
  try {
    await import('sonner');
  } finally {
    delete global.document;
  }
  if (inserted.length === 0) throw new Error('sonner inserted no style sheet: check how it styles its toasts now');
  const bundled = fs
    .readdirSync(path.join(root, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => fs.readFileSync(path.join(root, 'assets', name), 'utf8'))
    .join('\n');
  for (const sheet of inserted) {
    if (!bundled.includes(sheet.slice(0, 60))) throw new Error('the built app does not contain the style sheet sonner inserts: check the sonner version');
  }
  // It inserts the <style> element before its text: the browser checks the empty sheet first.
  return ['', ...inserted];
}

const librarySheets = (await libraryStyles()).map(sha256);

function walk(directory: string): void {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.html')) {
      const html = fs.readFileSync(full, 'utf8');
      const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => sha256(match[1] ?? ''));
      const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => sha256(match[1] ?? ''));
      hashes[path.relative(root, full).split(path.sep).join('/')] = {
        scripts: [...new Set(scripts)],
        styles: styles.length > 0 ? [...new Set([...styles, ...librarySheets])] : [],
      };
    }
  }
}

walk(root);
fs.writeFileSync(path.resolve('build/csp-hashes.json'), JSON.stringify(hashes, null, 2));
fs.writeFileSync(path.resolve('build/settings.json'), JSON.stringify(buildTimeSettings(process.env)));
console.log(`CSP: hashed the inline scripts and styles of ${Object.keys(hashes).length} HTML files`);
