/**
 * npm run bench:web: Lighthouse 12 (mobile preset, Debian's Chromium) on the public site.
 *
 * Starts the built app (run `npm run build` first) on a free loopback port with its own
 * throwaway data directory, audits `/`, `/about-us`, `/contact` and two resources pages, and
 * prints the four category scores, LCP, total blocking time and the JavaScript the page
 * downloaded (compressed bytes on the wire). Exits 1 when a target is missed:
 * performance >= 0.95, accessibility = 1, best practices and SEO >= 0.95 on every page,
 * and the home page under 150 kB of JavaScript. Each page is audited BENCH_RUNS times (default 3)
 * and the median run (Lighthouse's computeMedianRun) is reported, as Lighthouse's docs advise.
 * Scores depend on the machine's load: run it with nothing else busy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type * as LH from 'lighthouse/types/lh.js';
// Lighthouse's own choice of the representative run among several (by FCP and TTI).
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';

const PAGES = ['/', '/about-us', '/contact', '/resources/savings', '/resources/investment-solutions'];
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const TARGETS = { performance: 0.95, accessibility: 1, 'best-practices': 0.95, seo: 0.95 } as const;
const HOME_JS_BYTES_MAX = 150 * 1024;
const CATEGORIES = Object.keys(TARGETS) as Array<keyof typeof TARGETS>;
/** Lighthouse scores vary from run to run; its docs advise the median of several (default 3). */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the app did not answer ${url}/api/health within ${timeoutMs} ms`);
}

interface Row {
  page: string;
  scores: Record<keyof typeof TARGETS, number>;
  lcpMs: number;
  tbtMs: number;
  jsBytes: number;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
  url?: string;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.resolve('build/client/index.html'))) {
    console.error('No web build: run "npm run build" first.');
    process.exit(2);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-web-'));
  const app = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'warn', NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const rows: Row[] = [];
  try {
    await waitForHealth(base, app);
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    for (const page of PAGES) {
      const runs: LH.Result[] = [];
      for (let attempt = 0; runs.length < RUNS && attempt < RUNS + 2; attempt += 1) {
        const result = await lighthouse(`${base}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
        // A run whose trace broke (e.g. NO_NAVSTART) is retried, as Lighthouse's message asks.
        if (result && !result.lhr.runtimeError) runs.push(result.lhr);
        else process.stderr.write(`retrying ${page}: ${result?.lhr.runtimeError?.message ?? 'no result'}\n`);
      }
      if (runs.length === 0) throw new Error(`Lighthouse failed on ${page}`);
      const lhr = computeMedianRun(runs);
      const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []) as NetworkItem[];
      rows.push({
        page,
        scores: Object.fromEntries(CATEGORIES.map((category) => [category, lhr.categories[category]?.score ?? 0])) as Row['scores'],
        lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
        tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
        jsBytes: items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
      });
      process.stderr.write(`audited ${page} (${runs.length} runs)\n`);
    }
  } finally {
    await chrome?.kill();
    app.kill('SIGTERM');
    await new Promise((resolve) => (app.exitCode !== null ? resolve(null) : app.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const failures: string[] = [];
  const header = ['page', 'perf', 'a11y', 'best', 'seo', 'LCP ms', 'TBT ms', 'JS kB (compressed)'];
  const table = rows.map((row) => {
    for (const category of CATEGORIES) {
      if (row.scores[category] < TARGETS[category]) failures.push(`${row.page}: ${category} ${row.scores[category]} < ${TARGETS[category]}`);
    }
    if (row.page === '/' && row.jsBytes >= HOME_JS_BYTES_MAX)
      failures.push(`/: ${(row.jsBytes / 1024).toFixed(1)} kB of JavaScript >= ${HOME_JS_BYTES_MAX / 1024} kB`);
    return [
      row.page,
      ...CATEGORIES.map((category) => row.scores[category].toFixed(2)),
      Math.round(row.lcpMs).toString(),
      Math.round(row.tbtMs).toString(),
      (row.jsBytes / 1024).toFixed(1),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(
    `Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile preset, ${CHROME_PATH}, median of ${RUNS} run(s) per page, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of table) console.log(format(line));
  console.log(
    `Targets: performance >= ${TARGETS.performance}, accessibility = ${TARGETS.accessibility}, best practices and SEO >= ${TARGETS.seo}; home page JavaScript < ${HOME_JS_BYTES_MAX / 1024} kB.`,
  );
  if (failures.length > 0) {
    console.log(`MISSED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('All targets met.');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
