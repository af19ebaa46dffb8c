/**
 * npm run bench:web: Lighthouse 12 (mobile preset, simulated throttling, Debian's Chromium) on
 * every public page: the prerendered paths of the route manifest (src/shared/routes.ts).
 *
 * Starts the built app (run `npm run build` first) on loopback with its own throwaway data
 * directory (BENCH_PORT, else a free port) and audits each page BENCH_RUNS times (default 3).
 * The table shows the MEDIAN of the runs for every figure (the perf column also lists each run's
 * score), as Lighthouse's docs advise for a score that moves from run to run, next to what does
 * not depend on the machine's load: the JavaScript and HTML bytes on the wire, the render-blocking
 * requests, and the page's script budget (scripts/script-budget.ts, Brotli bytes from the build).
 *
 * Exits 1 when a target is missed on any page: performance >= 0.99, accessibility, best practices
 * and SEO = 1 (on the pages robots.txt disallows, SEO without "is-crawlable", which fails there by
 * design), and the script budget. BENCH_PAGES=/,/contact limits the run to some pages (a
 * partial run is for looking, not for the record). Simulated throttling multiplies the main
 * thread's observed time by 4: a busy machine lowers scores, so the load average is printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type * as LH from 'lighthouse/types/lh.js';
import { prerenderedPaths } from '../src/shared/routes';
import { measurePageScripts } from '../scripts/page-scripts';
import { budgetOf } from '../scripts/script-budget';
import { freePort, startBank, stopBank, waitForHealth } from './bank';

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
const TARGETS = { performance: 0.99, accessibility: 1, 'best-practices': 1, seo: 1 } as const;
const CATEGORIES = Object.keys(TARGETS) as Array<keyof typeof TARGETS>;
/** Lighthouse scores vary from run to run; its docs advise the median of several (default 3). */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const CLIENT_DIR = path.resolve('build/client');
/**
 * The paths robots.txt keeps crawlers out of on purpose (the staff pages): Lighthouse's
 * "is-crawlable" audit fails there by design, so their SEO score is taken without that one audit
 * (every other SEO audit still counts) and the table marks it.
 */
const ROBOTS_DISALLOWED = fs
  .readFileSync(path.resolve('public/robots.txt'), 'utf8')
  .split('\n')
  .map((line) => /^Disallow:\s*(\S+)/i.exec(line.trim())?.[1])
  .filter((prefix): prefix is string => prefix !== undefined);
const keptFromCrawlers = (page: string) => ROBOTS_DISALLOWED.some((prefix) => `${page}/`.startsWith(prefix));

function pagesToAudit(): string[] {
  const wanted = process.env.BENCH_PAGES?.split(',').map((page) => page.trim());
  if (!wanted) return prerenderedPaths;
  const unknown = wanted.filter((page) => !prerenderedPaths.includes(page));
  if (unknown.length > 0) throw new Error(`BENCH_PAGES names pages that are not public: ${unknown.join(', ')}`);
  return wanted;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

/** The figures of one Lighthouse run that the table shows. */
interface RunFigures {
  scores: Record<keyof typeof TARGETS, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsBytes: number;
  htmlBytes: number;
  renderBlocking: number;
}

/** A category's score as Lighthouse weighs it (weighted mean of the scored audits), leaving some audits out. */
function scoreWithout(lhr: LH.Result, category: string, leftOut: string[]): number {
  const refs = (lhr.categories[category]?.auditRefs ?? []).filter((ref) => {
    const audit = lhr.audits[ref.id];
    return ref.weight > 0 && !leftOut.includes(ref.id) && audit !== undefined && audit.score !== null;
  });
  const weight = refs.reduce((sum, ref) => sum + ref.weight, 0);
  return weight === 0 ? 0 : refs.reduce((sum, ref) => sum + ref.weight * (lhr.audits[ref.id]?.score ?? 0), 0) / weight;
}

function figuresOf(lhr: LH.Result, page: string): RunFigures {
  const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []) as NetworkItem[];
  const bytesOf = (type: string) => items.filter((item) => item.resourceType === type).reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [
        category,
        category === 'seo' && keptFromCrawlers(page) ? scoreWithout(lhr, 'seo', ['is-crawlable']) : (lhr.categories[category]?.score ?? 0),
      ]),
    ) as RunFigures['scores'],
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsBytes: bytesOf('Script'),
    htmlBytes: bytesOf('Document'),
    renderBlocking: ((lhr.audits['render-blocking-resources']?.details as { items?: unknown[] } | undefined)?.items ?? []).length,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

interface Row {
  page: string;
  runs: RunFigures[];
  median: RunFigures;
  budgetName: string;
  budgetBytes: number;
  buildJsBytes: number;
}

async function auditPage(base: string, port: number, page: string): Promise<RunFigures[]> {
  const runs: RunFigures[] = [];
  for (let attempt = 0; runs.length < RUNS && attempt < RUNS + 2; attempt += 1) {
    const result = await lighthouse(`${base}${page}`, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    // A run whose trace broke (e.g. NO_NAVSTART) is retried, as Lighthouse's message asks.
    if (result && !result.lhr.runtimeError) runs.push(figuresOf(result.lhr, page));
    else process.stderr.write(`retrying ${page}: ${result?.lhr.runtimeError?.message ?? 'no result'}\n`);
  }
  if (runs.length === 0) throw new Error(`Lighthouse failed on ${page}`);
  return runs;
}

function medianOf(runs: RunFigures[]): RunFigures {
  const of = (pick: (run: RunFigures) => number) => median(runs.map(pick));
  return {
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, of((run) => run.scores[category])])) as RunFigures['scores'],
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    jsBytes: of((run) => run.jsBytes),
    htmlBytes: of((run) => run.htmlBytes),
    renderBlocking: of((run) => run.renderBlocking),
  };
}

function printTable(rows: Row[], loadBefore: number): void {
  const failures: string[] = [];
  const header = ['page', 'perf', 'runs', 'a11y', 'best', 'seo', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'blocking', 'HTML kB', 'JS kB', 'budget kB'];
  const kB = (bytes: number) => (bytes / 1024).toFixed(1);
  const table = rows.map((row) => {
    for (const category of CATEGORIES) {
      const score = row.median.scores[category];
      if (score < TARGETS[category]) failures.push(`${row.page}: ${category} ${score.toFixed(2)} < ${TARGETS[category]} (median of ${row.runs.length})`);
    }
    if (row.buildJsBytes > row.budgetBytes)
      failures.push(`${row.page}: ${kB(row.buildJsBytes)} kB of JavaScript > ${row.budgetName} ${kB(row.budgetBytes)} kB`);
    return [
      row.page,
      row.median.scores.performance.toFixed(2),
      row.runs.map((run) => run.scores.performance.toFixed(2)).join(' '),
      ...CATEGORIES.slice(1).map((category) => `${row.median.scores[category].toFixed(2)}${category === 'seo' && keptFromCrawlers(row.page) ? '*' : ''}`),
      Math.round(row.median.fcpMs).toString(),
      Math.round(row.median.lcpMs).toString(),
      Math.round(row.median.tbtMs).toString(),
      row.median.cls.toFixed(3),
      row.median.renderBlocking.toString(),
      kB(row.median.htmlBytes),
      kB(row.median.jsBytes),
      `${kB(row.buildJsBytes)}/${kB(row.budgetBytes)}`,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 || column === 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of table) console.log(format(line));
  console.log(
    `Median of ${RUNS} run(s) per page. HTML and JS kB: bytes on the wire (Lighthouse transfer sizes, headers included); ` +
      `budget kB: the page's JavaScript before any interaction (Brotli, from the build) / its limit. Load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]?.toFixed(1)} at the end.`,
  );
  if (rows.some((row) => keptFromCrawlers(row.page)))
    console.log(`seo*: robots.txt keeps crawlers out of this page on purpose (${ROBOTS_DISALLOWED.join(' ')}); its SEO score leaves out "is-crawlable" only.`);
  console.log(`Targets: performance >= ${TARGETS.performance}, accessibility, best practices and SEO = 1, every page within its script budget.`);
  if (failures.length > 0) {
    console.log(`MISSED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('All targets met.');
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    console.error('No web build: run "npm run build" first.');
    process.exit(2);
  }
  const pages = pagesToAudit();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-bench-web-'));
  const app = startBank({ PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: base, NODE_ENV: 'test' });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const rows: Row[] = [];
  const loadBefore = os.loadavg()[0] ?? 0;
  try {
    await waitForHealth(base, app);
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    for (const page of pages) {
      const runs = await auditPage(base, chrome.port, page);
      const scripts = await measurePageScripts(CLIENT_DIR, page);
      const budget = budgetOf(page);
      rows.push({ page, runs, median: medianOf(runs), budgetName: budget.name, budgetBytes: budget.initialBytes, buildJsBytes: scripts.initialBytes });
      process.stderr.write(`audited ${page} (${runs.map((run) => run.scores.performance.toFixed(2)).join(' ')})\n`);
    }
  } finally {
    await chrome?.kill();
    await stopBank(app);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const { version } = (await import('lighthouse/package.json', { with: { type: 'json' } })).default;
  console.log(`Lighthouse ${version}, mobile preset (simulated throttling), ${CHROME_PATH}, ${pages.length} public page(s)`);
  printTable(rows, loadBefore);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
