// After `react-router build`: hash every inline <script> of every HTML file (sha256) into
// build/csp-hashes.json, so the server can send a Content-Security-Policy without 'unsafe-inline'.
// Also records the build-time settings so the server can warn about a stale build.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildTimeSettings } from '../src/shared/build-settings';

const root = path.resolve('build/client');
const hashes: Record<string, string[]> = {};

function walk(directory: string): void {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.html')) {
      const html = fs.readFileSync(full, 'utf8');
      const list: string[] = [];
      for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
        const body = match[1] ?? '';
        list.push(`sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`);
      }
      hashes[path.relative(root, full).split(path.sep).join('/')] = [...new Set(list)];
    }
  }
}

walk(root);
fs.writeFileSync(path.resolve('build/csp-hashes.json'), JSON.stringify(hashes, null, 2));
fs.writeFileSync(path.resolve('build/settings.json'), JSON.stringify(buildTimeSettings(process.env)));
console.log(`CSP: hashed inline scripts of ${Object.keys(hashes).length} HTML files`);
