import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import path from 'node:path';
import { stripDescriptionsPlugin } from './scripts/strip-descriptions';
import { buildTimeSettings } from './src/shared/build-settings';

// BANK_NAME and DEMO_MODE are baked into the prerendered pages; `npm start` rebuilds first,
// so the values in the environment when the bank starts are the ones customers see.
const settings = buildTimeSettings(process.env);

export default defineConfig({
  // The contracts' descriptions are for the OpenAPI document, not the browser (ADR 030).
  plugins: [stripDescriptionsPlugin(), tailwindcss(), reactRouter()],
  resolve: { alias: { '~': path.resolve('src/web'), '@shared': path.resolve('src/shared') } },
  define: {
    __BANK_NAME__: JSON.stringify(settings.bankName),
    __DEMO_MODE__: JSON.stringify(settings.demoMode),
  },
  server: { port: 5173 },
});
