import type { Config } from '@react-router/dev/config';
import { publicPaths } from './src/shared/routes';

// Public pages are prerendered to HTML at build time; signed-in areas are a client-side SPA
// (ssr: false) whose code loads only when visited.
export default {
  appDirectory: 'src/web',
  buildDirectory: 'build',
  ssr: false,
  prerender: publicPaths,
} satisfies Config;
