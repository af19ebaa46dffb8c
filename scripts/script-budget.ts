// The script budget of every public page, checked by `npm run build` (after precompress) and shown
// by `npm run bench:web`. A page's JavaScript is what scripts/page-scripts.ts reads from the build:
// "initial" is what the page downloads and runs with no interaction (it competes with the first
// paint on a phone and is most of its main-thread work), "on demand" what it may fetch later
// through a dynamic import (form validation on the first focus). Brotli bytes, as sent. Exceeding a limit fails the build: make the new code
// lazy, or raise the limit in a reviewed commit that says why (docs/decisions/018-public-page-speed.md).
import path from 'node:path';
import { routes, type RouteName } from '../src/shared/routes';
import { measurePageScripts, type PageScripts } from './page-scripts';

const KB = 1024;

export interface ScriptBudget {
  /** The named limit, as printed. */
  name: string;
  /** Brotli bytes of JavaScript loaded before any interaction. */
  initialBytes: number;
  /** Brotli bytes of JavaScript the page may load on demand. */
  lazyBytes: number;
}

// Every page carries the framework: React DOM (~57 kB), React Router (~37 kB), the route manifest
// (~4 kB) and the root with the site's shell (~4 kB), about 102 kB. Measured at the commit that set
// these limits: marketing pages 108.9-114.5 kB, form pages 122.1-127.9 kB (+ 24-32 kB on demand),
// sign-up 123.3 kB (+ 59 kB on demand). Each limit leaves a few kB of room, not more: the budget
// is there to make the next library a decision.

/** A marketing page: the framework, the site's header, footer and content, no form. */
export const MARKETING_PAGE: ScriptBudget = { name: 'MARKETING_PAGE', initialBytes: 118 * KB, lazyBytes: 0 };
/** A page with a form: + react-hook-form and the page's form; the shared contract (zod) loads on the first focus. */
export const FORM_PAGE: ScriptBudget = { name: 'FORM_PAGE', initialBytes: 132 * KB, lazyBytes: 40 * KB };
/**
 * Sign-up: a form page whose contract also checks phone numbers (libphonenumber's metadata, ~59 kB)
 * and the password strength meter (zxcvbn-ts with its dictionaries, ~740 kB, ADR 016): both on
 * demand, never part of the page's first download.
 */
export const SIGN_UP_PAGE: ScriptBudget = { name: 'SIGN_UP_PAGE', initialBytes: 132 * KB, lazyBytes: 810 * KB };
/** A form page that also chooses a new password (forgot password: the reset step), with the strength meter on demand. */
export const NEW_PASSWORD_PAGE: ScriptBudget = { name: 'NEW_PASSWORD_PAGE', initialBytes: 132 * KB, lazyBytes: 785 * KB };

/** The prerendered routes of the manifest (marketing and standalone pages): each one needs a budget. */
type PublicRouteName = { [Name in RouteName]: (typeof routes)[Name]['area'] extends 'marketing' | 'standalone' ? Name : never }[RouteName];

export const SCRIPT_BUDGETS: Record<PublicRouteName, ScriptBudget> = {
  home: MARKETING_PAGE,
  contact: FORM_PAGE,
  privacyPolicy: MARKETING_PAGE,
  termsAndConditions: MARKETING_PAGE,
  waysToBank: MARKETING_PAGE,
  aboutUs: MARKETING_PAGE,
  about: MARKETING_PAGE,
  businessBanking: MARKETING_PAGE,
  businessSavings: MARKETING_PAGE,
  businessChecking: MARKETING_PAGE,
  businessLoans: MARKETING_PAGE,
  commercialRealEstate: MARKETING_PAGE,
  personalChecking: MARKETING_PAGE,
  savings: MARKETING_PAGE,
  investmentSolutions: MARKETING_PAGE,
  personalLoans: MARKETING_PAGE,
  autoLoan: MARKETING_PAGE,
  homeEquityLine: MARKETING_PAGE,
  digitalAssets: MARKETING_PAGE,
  retirementSpouseProgram: MARKETING_PAGE,
  pammMam: MARKETING_PAGE,
  cannabisInvestments: MARKETING_PAGE,
  signin: FORM_PAGE,
  login: FORM_PAGE,
  signup: SIGN_UP_PAGE,
  register: SIGN_UP_PAGE,
  forgotPassword: NEW_PASSWORD_PAGE,
  emailVerification: FORM_PAGE,
  accountVerification: FORM_PAGE,
  adminLogin: FORM_PAGE,
  cancelRecovery: FORM_PAGE,
  verifyStatement: FORM_PAGE,
};

/** The budget of a public page, by its path. */
export function budgetOf(page: string): ScriptBudget {
  const name = (Object.keys(SCRIPT_BUDGETS) as PublicRouteName[]).find((candidate) => routes[candidate].path === page);
  if (!name) throw new Error(`${page} is not a public page of the route manifest`);
  return SCRIPT_BUDGETS[name];
}

export interface BudgetLine {
  page: string;
  budget: ScriptBudget;
  scripts: PageScripts;
  over: string[];
}

/** Measures every public page of a client build against its budget. */
export async function checkScriptBudgets(clientDir: string): Promise<BudgetLine[]> {
  const lines: BudgetLine[] = [];
  for (const name of Object.keys(SCRIPT_BUDGETS) as PublicRouteName[]) {
    const page = routes[name].path;
    const budget = SCRIPT_BUDGETS[name];
    const scripts = await measurePageScripts(clientDir, page);
    const over: string[] = [];
    if (scripts.initialBytes > budget.initialBytes) over.push(`initial ${kB(scripts.initialBytes)} kB > ${budget.name} ${kB(budget.initialBytes)} kB`);
    if (scripts.lazyBytes > budget.lazyBytes) over.push(`on demand ${kB(scripts.lazyBytes)} kB > ${budget.name} ${kB(budget.lazyBytes)} kB`);
    lines.push({ page, budget, scripts, over });
  }
  return lines;
}

const kB = (bytes: number) => (bytes / KB).toFixed(1);

async function main(): Promise<void> {
  const lines = await checkScriptBudgets(path.resolve('build/client'));
  const rows = lines.map((line) => [
    line.page,
    line.budget.name,
    kB(line.scripts.initialBytes),
    kB(line.budget.initialBytes),
    kB(line.scripts.lazyBytes),
    kB(line.budget.lazyBytes),
    line.over.length > 0 ? 'OVER' : 'ok',
  ]);
  const header = ['page', 'budget', 'initial kB', 'limit', 'on demand kB', 'limit', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const format = (cells: string[]) =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log('Script budget (JavaScript per public page, Brotli bytes):');
  console.log(format(header));
  for (const row of rows) console.log(format(row));
  const over = lines.filter((line) => line.over.length > 0);
  if (over.length > 0) {
    console.error(`Script budget exceeded:\n${over.map((line) => `  ${line.page}: ${line.over.join('; ')}`).join('\n')}`);
    console.error('Load the new code on demand (a dynamic import) or raise the limit in scripts/script-budget.ts, saying why.');
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  await main();
}
