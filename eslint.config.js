// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules, React's hook rules
// for the web code, and nothing that Prettier already decides (formatting).
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NATIVE_DIALOG_MESSAGE = 'Ask in the page: ConfirmInline (src/web/components/ui/confirm-inline.tsx).';

export default tseslint.config(
  { ignores: ['build/', '.react-router/', 'node_modules/', 'test-results/', 'playwright-report/', '.tmp/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The two classic hook rules. The React Compiler rules of plugin v7 are left out: the pages are
    // prerendered, so reading the URL or navigation state after hydration, and resetting menus on
    // navigation, are effects that set state on purpose.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // One money formatter and one date formatter: src/web/lib/format.ts.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/lib/format.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'].map((property) => ({ property, message: 'Format through src/web/lib/format.ts.' })),
        // One way to ask: the browser's own dialogs cannot be styled, are blocked in some embeds and
        // cannot show the amount and payee as the page does.
        ...['confirm', 'alert', 'prompt'].map((property) => ({ object: 'window', property, message: NATIVE_DIALOG_MESSAGE })),
      ],
      'no-restricted-globals': ['error', ...['confirm', 'alert', 'prompt'].map((name) => ({ name, message: NATIVE_DIALOG_MESSAGE }))],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.object.name='Intl'][callee.property.name=/^(NumberFormat|DateTimeFormat)$/]",
          message: 'Format through src/web/lib/format.ts.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/shared/money'], importNames: ['formatCents', 'formatDollars'], message: 'Import money formatting from src/web/lib/format.ts.' },
          ],
        },
      ],
    },
  },
  // ---------------------------------------------------------------- boundaries (docs/decisions/007-code-shape.md)
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'], tsconfig: { configFile: path.resolve('tsconfig.json') } })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaryZones() }] },
  },
  {
    // The core and every service, repository and job run without HTTP: a job or a CLI calls them as they are.
    files: [
      'src/server/ledger/**/*.ts',
      'src/server/lib/**/*.ts',
      'src/server/db/**/*.ts',
      'src/server/jobs/**/*.ts',
      'src/server/**/service.ts',
      'src/server/**/repository.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify-*', '@fastify/*'],
              message: 'Services, repositories and the ledger know nothing of HTTP: take an explicit context instead.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);

/**
 * Import zones, each refused with its reason: the server never imports the web app (or the other
 * way round), the ledger core imports no domain, HTTP plugin or seed, services and repositories
 * import no HTTP plugin, no web feature imports another feature (shared code lives in lib/), and the web
 * app's shared code imports no feature.
 */
function boundaryZones() {
  const features = fs
    .readdirSync('src/web/features', { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return [
    { target: './src/server', from: './src/web', message: 'The server does not import the web app: shared code lives in src/shared.' },
    { target: './src/web', from: './src/server', message: 'The web app does not import the server: shared code lives in src/shared.' },
    { target: './src/shared', from: ['./src/server', './src/web'], message: 'src/shared is imported by both sides and imports neither.' },
    {
      target: './src/server/ledger',
      from: './src/server',
      except: ['./ledger', './db', './lib'],
      message: 'The ledger core imports only the database and lib/: no domain, no HTTP, no seed.',
    },
    {
      target: ['./src/server/**/service.ts', './src/server/**/repository.ts'],
      from: ['./src/server/plugins', './src/server/app.ts', './src/server/server.ts'],
      message: 'Services and repositories do not depend on the HTTP layer.',
    },
    {
      target: ['./src/web/components', './src/web/lib'],
      from: ['./src/web/features', './src/web/routes'],
      message: 'Shared web code (components, lib) imports no feature or route: the route passes what it needs.',
    },
    ...features.map((feature) => ({
      target: `./src/web/features/${feature}`,
      from: './src/web/features',
      except: [`./${feature}`],
      message: 'A feature does not import another feature: move shared code to src/web/lib or components.',
    })),
  ];
}
