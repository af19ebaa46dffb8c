import type { Config } from '@react-router/dev/config';
import { prerenderedPaths } from './src/shared/routes';

// Public pages are prerendered to HTML at build time; signed-in areas are a client-side SPA
// (ssr: false) whose code loads only when visited. Which is which comes from the route manifest.
export default {
  appDirectory: 'src/web',
  buildDirectory: 'build',
  ssr: false,
  prerender: prerenderedPaths,
} satisfies Config;
